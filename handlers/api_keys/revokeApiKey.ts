import type { Handler } from '../../runtime/handler.js';
import { loadManagedKey } from './managed-key.js';
import { apiKeyView } from './api-key-view.js';

/** POST /api_keys/{id}/revoke: final. A second revoke returns the key as it is, so retries are harmless. */
export const revokeApiKey: Handler<'revokeApiKey'> = async ({ path }, ctx) => {
  const key = await loadManagedKey(ctx, path.id, 'api_key:manage');
  if (key.revoked_at) return apiKeyView(key);
  const now = new Date().toISOString();
  const [row] = await ctx.db('api_keys').where({ id: key.id }).update({ revoked_at: now, updated_at: now }).returning('*');
  await ctx.emit('api_key.revoked', row.account_id, apiKeyView(row));
  return apiKeyView(row);
};
