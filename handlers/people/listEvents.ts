import type { ListHook } from '../../generated/plain-hooks.js';

/** GET /events (plain list): identifier names a person by its id or by any of its identities (identities are unique
 * per account and kind, so a value names at most one person per kind; a value two kinds share names both). */
export const listEvents: ListHook<'listEvents'> = (events, { identifier }) => {
  if (identifier === undefined) return;
  events.where((w) => w.where('tracked_events.person_id', identifier)
    .orWhereIn('tracked_events.person_id', (ids) => ids.from('person_identities').select('person_id')
      .whereRaw('person_identities.account_id = tracked_events.account_id')
      .whereIn('kind', ['anonymous_id', 'user_id', 'email', 'external_id']).andWhere('value', identifier)));
};
