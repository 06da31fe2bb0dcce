import type { ListHook } from '../../generated/plain-hooks.js';
import { LEGACY_STATUS } from './legacy-status.js';

/** GET /resolution_center_cases (plain list): older versions' statuses[] (the official client's words) match the
 * status and outcome each stands for; an empty list, or only words no case can have, matches nothing. */
export const listResolutionCenterCases: ListHook<'listResolutionCenterCases'> = (cases, { statuses }) => {
  if (statuses === undefined) return;
  const words = statuses.map((w) => LEGACY_STATUS[w]).filter(Boolean);
  cases.where((any) => {
    any.whereRaw('false');
    for (const w of words) {
      any.orWhere((one) => {
        one.where('resolution_center_cases.status', w.status);
        if (w.outcomes) one.whereIn('resolution_center_cases.outcome', w.outcomes);
      });
    }
  });
};
