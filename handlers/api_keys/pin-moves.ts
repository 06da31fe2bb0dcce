// The upgrade workbench's pin moves (POST /api_keys/{id}/move_pin and /rollback_pin, plain actions): a key's pin is
// moved with a way back that stays open 72 hours, as Stripe's version upgrades do. The window is measured in the
// account's time (its sandbox clock's when on one), since key management runs on user tokens, which act at real time,
// while the key's own requests run on the clock: an integrator advances the clock to see the way back close.
import type { Knex } from 'knex';
import type { ActionHook } from '../../generated/plain-hooks.js';
import type { Tables } from '../../generated/rows.js';
import { ApiError, conflict, invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { day } from '../../runtime/plain/read.js';
import { headVersion, parseVersionDate } from '../../runtime/versions.js';
import { accountNow } from '../shared/account-time.js';

const ROLLBACK_WINDOW_MS = 72 * 60 * 60 * 1000;

type KeyRow = Tables['api_keys'];

/** The account's live v1 subscriptions on the version `pin` (null: unpinned): they were in step with the key. Read
 * as rows, not through the webhooks area: only their ids are named. */
async function subscriptionsOn(db: Knex, accountId: string, pin: string | null): Promise<string[]> {
  const rows = await db('webhooks').where({ account_id: accountId, payload_format: 'v1' }).whereNull('deleted_at')
    .whereRaw('api_version_date is not distinct from ?::date', [pin]).orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('id');
  return rows.map((r: { id: string }) => r.id);
}

function refuseRevoked(key: KeyRow, what: string): void {
  if (key.revoked_at) throw conflict(`The API key ${key.id} has been revoked; its pin cannot be ${what}`);
}

/** POST /api_keys/{id}/move_pin: the move is kept as a row and the way back written on the key. */
export const movePin: ActionHook<'moveApiKeyPin'> = async (key, { body }, ctx) => {
  refuseRevoked(key, 'moved');
  const from = day(key.api_version_date);
  const to = body.target === undefined ? headVersion() : parseVersionDate(body.target, 'target');
  if (to === from) throw invalid(`The API key ${key.id} is already pinned to ${to}`, 'target');
  const movedAt = await accountNow(ctx.db, key.account_id);
  const rollbackUntil = new Date(movedAt.getTime() + ROLLBACK_WINDOW_MS);
  const following = await subscriptionsOn(ctx.db, key.account_id, from);
  await ctx.db('api_key_pin_moves').insert({
    id: newId('apkpm_'), account_id: key.account_id, api_key_id: key.id, from_version_date: from, to_version_date: to,
    moved_at: movedAt, rollback_until: rollbackUntil, subscriptions_following: following,
  });
  await ctx.db('api_keys').where({ id: key.id }).update({
    api_version_date: to, previous_api_version_date: from, pin_moved_at: movedAt, pin_rollback_until: rollbackUntil,
    pin_subscriptions_following: following, updated_at: new Date(),
  });
};

/** POST /api_keys/{id}/rollback_pin: back to the version the last move left, while its window is open; a rollback
 * closes the way back (moving again opens a new one). */
export const rollbackPin: ActionHook<'rollbackApiKeyPin'> = async (key, _input, ctx) => {
  refuseRevoked(key, 'moved back');
  if (!key.pin_rollback_until) {
    throw new ApiError(400, 'invalid_state', `The API key ${key.id} has no pin move to roll back (never moved, or already rolled back)`);
  }
  const until = new Date(key.pin_rollback_until);
  const now = await accountNow(ctx.db, key.account_id);
  if (now.getTime() > until.getTime()) {
    throw new ApiError(400, 'invalid_state',
      `The way back of the API key ${key.id}'s pin move closed at ${until.toISOString()} (72 hours after the move); move the pin instead`);
  }
  const from = day(key.api_version_date);
  const back = day(key.previous_api_version_date);
  await ctx.db('api_key_pin_moves').where({ api_key_id: key.id }).whereNull('rolled_back_at')
    .where('rollback_until', '=', until).update({ rolled_back_at: now, updated_at: now });
  await ctx.db('api_keys').where({ id: key.id }).update({
    api_version_date: back, previous_api_version_date: from, pin_moved_at: now, pin_rollback_until: null, updated_at: new Date(),
  });
};
