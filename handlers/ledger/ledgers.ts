// Which balance (ldgr_) holds a side's money: an account's business ledger, a user's personal wallet, or the
// platform's own. Each is made on first use, once (a unique index per owner and kind decides races).
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { newId } from '../../runtime/ids.js';

/** A biz_ account, a user_ (their personal wallet), or the platform. */
export type Side = string;
export const PLATFORM: Side = 'platform';

interface Owner { kind: 'business' | 'personal' | 'platform'; account_id: string | null; user_id: string | null; conflict: string }

function ownerOf(side: Side): Owner {
  if (side === PLATFORM) return { kind: 'platform', account_id: null, user_id: null, conflict: "(kind) where kind = 'platform'" };
  if (side.startsWith('biz_')) return { kind: 'business', account_id: side, user_id: null, conflict: "(account_id) where kind = 'business'" };
  if (side.startsWith('user_')) return { kind: 'personal', account_id: null, user_id: side, conflict: "(user_id) where kind = 'personal'" };
  throw new Error(`no ledger side is named '${side}'`);
}

const FIND = (kind: string, account: string, user: string) =>
  `select id from ledger_accounts where kind = ${kind} and account_id is not distinct from ${account} and user_id is not distinct from ${user}`;

/**
 * One statement in the common case: make the ledger, or read the one there is. (A ledger made by a transaction that
 * commits after this statement began is not in its snapshot: then a second read finds it.) Not cached in the
 * process: a ledger read inside a transaction may be that transaction's own, which a rollback takes away.
 */
export async function ledgerOf(db: Knex, side: Side): Promise<string> {
  const owner = ownerOf(side);
  const [row] = await query<{ id: string }>(db,
    `with made as (insert into ledger_accounts (id, kind, account_id, user_id) values ($1, $2, $3, $4)
       on conflict ${owner.conflict} do nothing returning id)
     select id from made union all (${FIND('$2', '$3', '$4')}) limit 1`,
    [newId('ldgr_'), owner.kind, owner.account_id, owner.user_id]);
  if (row) return row.id;
  const [existing] = await query<{ id: string }>(db, FIND('$1', '$2', '$3'), [owner.kind, owner.account_id, owner.user_id]);
  return existing.id;
}
