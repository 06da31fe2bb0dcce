// An account's business ledger as tests read it: postings and balances are keyed by the ledger (ldgr_), not the account.
import type { Knex } from 'knex';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { postEntries, postEntry, type Bucket, type Entry } from '../../handlers/ledger/post.js';
import { newId } from '../../runtime/ids.js';

const businessLedger = (db: Knex, accountId: string) =>
  db('ledger_accounts').select('id').where({ account_id: accountId, kind: 'business' });

export const postingsOf = (db: Knex, accountId: string) => db('ledger_postings').whereIn('ledger_id', businessLedger(db, accountId));
export const balanceRowsOf = (db: Knex, accountId: string) => db('ledger_balances').whereIn('ledger_id', businessLedger(db, accountId));

/** Postings as a test states them, by account (each account's business ledger takes its rows), posted as the
 * product posts: balanced entries through the ledger's own postEntries. */
export async function insertPostings(db: Knex, rows: { entry_id: string; account_id: string; bucket: string; currency: string; amount: number }[]) {
  const ledgers = new Map<string, string>();
  for (const r of rows) if (!ledgers.has(r.account_id)) ledgers.set(r.account_id, await ledgerOf(db, r.account_id));
  const entries = new Map<string, Entry>();
  for (const r of rows) {
    const key = `${r.entry_id}\u0000${r.currency}`;
    if (!entries.has(key)) entries.set(key, { id: r.entry_id, currency: r.currency, postings: [] });
    entries.get(key)!.postings.push({ ledger: ledgers.get(r.account_id)!, bucket: r.bucket as Bucket, amount: r.amount });
  }
  await postEntries(db, [...entries.values()]);
}

/** Money arriving on a side's available balance from outside (as a cleared payment would), in one balanced entry. */
export async function fundBalance(db: Knex, side: string, amount: number, currency = 'usd'): Promise<string> {
  const ledger = await ledgerOf(db, side);
  await postEntry(db, newId('le_fund_'), currency, [
    { ledger, bucket: 'processor_clearing', amount: -amount },
    { ledger, bucket: 'available', amount },
  ]);
  return ledger;
}
