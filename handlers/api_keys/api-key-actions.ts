// The rules of the operations on one API key that are declared plain (spec/areas/api_keys.yaml): the runtime finds
// and locks the key under the owner rules (api_key:manage on its account), runs the rule here, and answers the key
// as it is then. Create and rotate stay written by hand: they return a new secret, this once.
import type { ActionHook, UpdateHook } from '../../generated/plain-hooks.js';
import { conflict } from '../../runtime/errors.js';
import { parseVersionDate } from '../../runtime/versions.js';
import { checkExpiry, checkIpAllowlist } from './api-key-policy.js';

/** PATCH /api_keys/{id} (plain update): a revoked key is final; the sent settings are checked as on create. The
 * policy is fixed at creation (the body cannot name it). */
export const update: UpdateHook<'updateApiKey'> = async (key, body, ctx) => {
  if (key.revoked_at) throw conflict(`The API key ${key.id} has been revoked and can no longer be changed`);
  const checked = { ...body };
  if (body.ip_allowlist !== undefined) checked.ip_allowlist = checkIpAllowlist(body.ip_allowlist);
  if (body.expires_at !== undefined) checked.expires_at = checkExpiry(body.expires_at);
  if (body.api_version_date !== undefined) checked.api_version_date = parseVersionDate(body.api_version_date, 'api_version_date');
  // A pin set by hand supersedes a move's way back (./pin-moves.ts): a rollback would return to a pin left long ago.
  if (key.pin_rollback_until && checked.api_version_date !== undefined) {
    await ctx.db('api_keys').where({ id: key.id }).update({ pin_rollback_until: null });
  }
  return checked;
};

/** POST /api_keys/{id}/revoke (plain action): final. revoked_at is no state machine's field, so this is an action,
 * not a transition. A second revoke answers the key as it is (the first revoked_at) and records no second event, so
 * retries are harmless. */
export const revoke: ActionHook<'revokeApiKey'> = async (key, _input, ctx) => {
  if (key.revoked_at) return { unchanged: true };
  const now = new Date().toISOString();
  await ctx.db('api_keys').where({ id: key.id }).update({ revoked_at: now, updated_at: now });
};
