import type { Handler } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { shadowReplay } from './shadow-replay.js';

/** GET /api_keys/{id}/shadow_replay: the key's recent reads replayed at its version and at target (./shadow-replay.ts).
 * Written, not plain: the answer is computed by re-running the key's logged reads, not read from the key's row. */
export const retrieveShadowReplay: Handler<'retrieveShadowReplay'> = async ({ path, query }, ctx) => {
  const key = await loadOwned(ctx, resources.ApiKey, path.id, ['api_key:read']);
  return shadowReplay(ctx.db, { id: key.id as string, api_version_date: key.api_version_date as string | Date | null }, query.target);
};
