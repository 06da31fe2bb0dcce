// Members are kept by the membership lifecycle: a user joins an account when they first get a membership (or save
// a payment method with it) and leaves when their last membership granting access ends. last_opened_at records the
// member's own user opening the account (their access check, handlers/users/checkUserAccess.ts).
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { canTransition, transition } from '../../generated/state-machine.js';
import { ACCESS_GRANTING_STATUSES } from './access-level.js';
import { nowMs } from '../shared/now.js';

/** The user's member row on the account, created (joined) if missing and rejoined if they had left. */
export async function ensureMember(db: Knex, accountId: string, userId: string): Promise<{ id: string; status: string }> {
  await db('members').insert({ id: newId('mber_'), account_id: accountId, user_id: userId, status: 'joined' })
    .onConflict(['account_id', 'user_id']).ignore();
  // FOR NO KEY UPDATE: the rows that reference the member (a dispute, a payment) take KEY SHARE locks on it as they are
  // written; FOR UPDATE would wait on those, and a collection settling the buyer's payment deadlocked with a chargeback
  // of their other one (each then waited on the other's ledger balances).
  const member = await db('members').where({ account_id: accountId, user_id: userId }).forNoKeyUpdate().first('id', 'status');
  if (member.status === 'left') {
    const status = transition('Member', member.status, 'rejoin');
    await db('members').where({ id: member.id }).update({ status, joined_at: nowMs(db), left_at: null, updated_at: nowMs(db) });
    member.status = status;
  }
  return member;
}

/** After a membership ended: the member leaves when no membership of theirs on the account grants access. */
export async function leaveIfNoAccessLeft(db: Knex, memberId: string): Promise<void> {
  const member = await db('members').where({ id: memberId }).forNoKeyUpdate().first('id', 'status', 'account_id', 'user_id');
  if (!member || !canTransition('Member', member.status, 'leave')) return;
  const live = await db('memberships').where({ account_id: member.account_id, user_id: member.user_id })
    .whereIn('status', [...ACCESS_GRANTING_STATUSES, 'paused']).first('id');
  if (live) return;
  const status = transition('Member', member.status, 'leave');
  await db('members').where({ id: member.id }).update({ status, left_at: nowMs(db), updated_at: nowMs(db) });
}

/** The member's own user opened the account: last_opened_at, at minute resolution like API keys' last_used_at.
 * Within a minute of the last recorded open the update matches no row, so repeated opens write nothing; a user who
 * is not a member of the account has no row to touch. */
export async function recordMemberOpened(db: Knex, accountId: string, userId: string): Promise<void> {
  await db('members').where({ account_id: accountId, user_id: userId })
    .where((w) => w.whereNull('last_opened_at').orWhere('last_opened_at', '<', db.raw("now() - interval '1 minute'")))
    .update({ last_opened_at: nowMs(db) });
}
