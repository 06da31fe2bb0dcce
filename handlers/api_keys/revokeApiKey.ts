// Written by hand, not a plain transition: revoked_at is no state machine's field, so there is no declared move to make.
import type { Handler } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';

/** POST /api_keys/{id}/revoke: final. A second revoke returns the key as it is, so retries are harmless. */
export const revokeApiKey: Handler<'revokeApiKey'> = async ({ path }, ctx) => {
  const key = await loadOwned(ctx, resources.ApiKey, path.id, ['api_key:manage'], { forUpdate: true });
  if (key.revoked_at) return resources.ApiKey.view(key);
  const now = new Date().toISOString();
  const [row] = await ctx.db('api_keys').where({ id: key.id }).update({ revoked_at: now, updated_at: now }).returning('*');
  await ctx.emit('api_key.revoked', row.account_id, resources.ApiKey.view(row));
  return resources.ApiKey.view(row);
};
