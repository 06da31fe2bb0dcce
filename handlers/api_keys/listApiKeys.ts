import type { ListHook } from '../../generated/plain-hooks.js';

/** GET /api_keys (plain list): status is computed from revoked_at and expires_at (api-key-fields.ts apiKeyStatus),
 * so its filter restates that in SQL. */
export const listApiKeys: ListHook<'listApiKeys'> = (keys, { status }) => {
  if (status === undefined) return;
  const now = new Date().toISOString();
  if (status === 'revoked') {
    keys.whereNotNull('api_keys.revoked_at');
    return;
  }
  keys.whereNull('api_keys.revoked_at');
  if (status === 'expired') keys.where('api_keys.expires_at', '<=', now);
  else keys.where((w) => w.whereNull('api_keys.expires_at').orWhere('api_keys.expires_at', '>', now));
};
