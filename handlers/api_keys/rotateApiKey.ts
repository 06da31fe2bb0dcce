import type { Handler } from '../../runtime/handler.js';
import { conflict } from '../../runtime/errors.js';
import { loadManagedKey } from './managed-key.js';
import { replaceApiKeySecret } from './api-key-service.js';
import { apiKeyView } from './api-key-view.js';

/** POST /api_keys/{id}/rotate: the new secret is returned this once; the old one is refused from now on. */
export const rotateApiKey: Handler<'rotateApiKey'> = async ({ path }, ctx) => {
  const key = await loadManagedKey(ctx, path.id, 'api_key:manage');
  if (key.revoked_at) throw conflict(`The API key ${key.id} has been revoked and cannot be rotated; create a new key`);
  const { row, secret } = await replaceApiKeySecret(ctx.db, key.id);
  await ctx.emit('api_key.rotated', row.account_id, apiKeyView(row));
  return apiKeyView(row, secret);
};
