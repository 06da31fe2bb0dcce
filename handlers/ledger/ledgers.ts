// Which balance (ldgr_) holds a side's money: an account's business ledger, a user's personal wallet, or the
// platform's own. Each is made on first use, once (a unique index per owner and kind decides races).
import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
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

// A ledger is never deleted nor given to another owner, so a committed one can be remembered for good, per database
// (a process may serve several: the tests do). One this transaction has just made is not remembered: the
// transaction may yet roll back.
const byDatabase = new WeakMap<object, LRUCache<Side, string>>();

function cacheOf(db: Knex): LRUCache<Side, string> {
  // Keyed by the connection settings, the one object a pool's knex client shares with its transactions' clients.
  const settings = (db.client as { connectionSettings: object }).connectionSettings;
  let cache = byDatabase.get(settings);
  if (!cache) byDatabase.set(settings, (cache = new LRUCache<Side, string>({ max: 50_000 })));
  return cache;
}

export async function ledgerOf(db: Knex, side: Side): Promise<string> {
  const committed = cacheOf(db);
  const known = committed.get(side);
  if (known) return known;
  const owner = ownerOf(side);
  const made = await query<{ id: string }>(db,
    `insert into ledger_accounts (id, account_id, user_id, kind) values ($1, $2, $3, $4)
     on conflict ${owner.conflict} do nothing returning id`,
    [newId('ldgr_'), owner.account_id, owner.user_id, owner.kind]);
  if (made[0]) return made[0].id;
  const [existing] = await query<{ id: string }>(db,
    `select id from ledger_accounts where kind = $1 and account_id is not distinct from $2 and user_id is not distinct from $3`,
    [owner.kind, owner.account_id, owner.user_id]);
  committed.set(side, existing.id);
  return existing.id;
}
