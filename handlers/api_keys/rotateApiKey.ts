// Written by hand, not declared plain: the new secret is in this answer only, beyond the view a plain action answers
// (its secret is null), and api_key.rotated must carry the key without it.
import type { Handler } from '../../generated/handler.js';
import { conflict } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { replaceApiKeySecret } from './api-key-service.js';
import { resources } from '../../generated/resources.js';

/** POST /api_keys/{id}/rotate: the new secret is returned this once; the old one is refused from now on. */
export const rotateApiKey: Handler<'rotateApiKey'> = async ({ path }, ctx) => {
  const key = await loadOwned(ctx, resources.ApiKey, path.id, ['api_key:manage'], { read: 'lock' });
  if (key.revoked_at) throw conflict(`The API key ${key.id} has been revoked and cannot be rotated; create a new key`);
  const { row, secret } = await replaceApiKeySecret(ctx.db, key.id);
  await ctx.emit('api_key.rotated', row.account_id, resources.ApiKey.view(row));
  return { ...resources.ApiKey.view(row), secret };
};
