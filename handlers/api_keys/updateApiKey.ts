import { conflict } from '../../runtime/errors.js';
import type { UpdateHook } from '../../generated/plain-hooks.js';
import { parseVersionDate } from '../../runtime/versions.js';
import { checkExpiry, checkIpAllowlist } from './api-key-policy.js';

/** PATCH /api_keys/{id} (plain update): a revoked key is final; the sent settings are checked as on create. The
 * policy is fixed at creation (the body cannot name it). */
export const updateApiKey: UpdateHook<'updateApiKey'> = (key, body) => {
  if (key.revoked_at) throw conflict(`The API key ${key.id} has been revoked and can no longer be changed`);
  const checked = { ...body };
  if (body.ip_allowlist !== undefined) checked.ip_allowlist = checkIpAllowlist(body.ip_allowlist);
  if (body.expires_at !== undefined) checked.expires_at = checkExpiry(body.expires_at);
  if (body.api_version_date !== undefined) checked.api_version_date = parseVersionDate(body.api_version_date, 'api_version_date');
  return checked;
};
