import type { Handler } from '../../runtime/handler.js';
import { conflict } from '../../runtime/errors.js';
import { parseVersionDate } from '../../runtime/versions.js';
import { loadManagedKey } from './managed-key.js';
import { checkExpiry, checkIpAllowlist } from './api-key-policy.js';
import { apiKeyView } from './api-key-view.js';

/** PATCH /api_keys/{id}: only the fields sent change; the policy is fixed at creation. */
export const updateApiKey: Handler<'updateApiKey'> = async ({ path, body }, ctx) => {
  const key = await loadManagedKey(ctx, path.id, 'api_key:manage');
  if (key.revoked_at) throw conflict(`The API key ${key.id} has been revoked and can no longer be changed`);
  const changes: Record<string, unknown> = { updated_at: new Date().toISOString() };
  if (body.name !== undefined) changes.name = body.name;
  if (body.ip_allowlist !== undefined) changes.ip_allowlist = checkIpAllowlist(body.ip_allowlist);
  if (body.expires_at !== undefined) changes.expires_at = checkExpiry(body.expires_at);
  if (body.api_version_date !== undefined) changes.api_version_date = parseVersionDate(body.api_version_date, 'api_version_date');
  const [row] = await ctx.db('api_keys').where({ id: key.id }).update(changes).returning('*');
  return apiKeyView(row);
};
