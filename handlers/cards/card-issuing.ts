// What issuing a card decides: who holds it (a cardholder per team member, made with their first card) and the
// card's own facts (a sandbox number's last four digits, an expiry three years out).
import type { Knex } from 'knex';
import { randomInt } from 'node:crypto';
import { newId } from '../../runtime/ids.js';
import { clockNow } from '../../runtime/clock.js';
import { notFound } from '../../runtime/errors.js';
import type { CardholderRow } from '../../generated/rows.js';

/** The user's cardholder on the account, made on first use (the unique (account_id, user_id) settles races). */
export async function cardholderFor(db: Knex, accountId: string, userId: string): Promise<{ row: CardholderRow; made: boolean }> {
  const member = await db('team_members as tm').join('users as u', 'u.id', 'tm.user_id')
    .where({ 'tm.account_id': accountId, 'tm.user_id': userId, 'tm.status': 'active' }).first('u.name', 'u.username');
  if (!member) throw notFound('team member', userId, 'assigned_user_id');
  const [made] = await db('cardholders')
    .insert({ id: newId('ichd_'), account_id: accountId, user_id: userId, name: member.name || member.username })
    .onConflict(['account_id', 'user_id']).ignore().returning('*');
  if (made) return { row: made, made: true };
  return { row: await db('cardholders').where({ account_id: accountId, user_id: userId }).first(), made: false };
}

/** A new card's facts: four random digits and an expiry at the end of the month three years from now (UTC). */
export function newCardFacts(now = clockNow()): { last4: string; expiration_month: string; expiration_year: string } {
  return {
    last4: String(randomInt(0, 10_000)).padStart(4, '0'),
    expiration_month: String(now.getUTCMonth() + 1).padStart(2, '0'),
    expiration_year: String(now.getUTCFullYear() + 3),
  };
}
