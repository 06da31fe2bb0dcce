// An account's business time, read from outside its clock: a claimant's user token or a public page runs at real
// time, but a claim link of an account on a sandbox clock (runtime/clock.ts) expires by that clock. Inside the
// account's own clock context this is the same as now().
import type { Knex } from 'knex';

/** SQL: the time of the account in `accountIdColumn` (its clock's, or now() when it runs on none, or is no account). */
export const accountNowSql = (accountIdColumn: string): string =>
  `coalesce((select c_now.frozen_time from accounts a_now join clocks c_now on c_now.id = a_now.clock_id and c_now.deleted_at is null
    where a_now.id = ${accountIdColumn}), now())`;

/** The time of `accountId` (its clock's, or the database's now()). */
export async function accountNow(db: Knex, accountId: string): Promise<Date> {
  const { rows } = await db.raw(`select ${accountNowSql('?')} as now`, [accountId]);
  return new Date(rows[0].now);
}
