// Which accounts run on a clock: the account it was made for and everything connected under it, at any depth.
import type { Knex } from 'knex';

/** SQL: the ids of the account `$param` and of its connected accounts, at any depth. */
const TREE = `with recursive tree(id) as (select ?::text union all select a.id from accounts a join tree on a.parent_id = tree.id)
  select id from tree`;

/** Puts the account tree on `clockId` (or back on real time with null). */
export async function setAccountsClock(db: Knex, rootAccountId: string, clockId: string | null): Promise<void> {
  await db.raw(`update accounts set clock_id = ? where id in (${TREE})`, [clockId, rootAccountId]);
}

/** The clock an account (or one of its parents) already runs on, if any. */
export async function clockOfAccount(db: Knex, accountId: string): Promise<string | null> {
  const row = await db('accounts').where({ id: accountId }).first('clock_id');
  return row?.clock_id ?? null;
}
