// The one way money moves: a balanced entry of postings, written in the caller's transaction. The database moves the
// materialised balances in the same statement and refuses a spendable bucket below zero
// (migrations/200_ledgers.ts), so a floor holds whatever runs concurrently: the losing request gets a 400.
import type { Knex } from 'knex';
import { query, refusableAtCommit } from '../../runtime/request-db.js';
import { ApiError } from '../../runtime/errors.js';

/** Spendable: available (withdrawable), in_transit (on its way out in a payout), held (reserved for a claim link).
 * Unfloored: pending (clearing; may go negative), fees, and the contra buckets for money owed by or to the outside
 * (the platform's crypto_clearing holds the stablecoins deposits brought in, its fx_clearing the currencies swaps
 * exchanged; handlers/deposits/confirm-deposit.ts, handlers/swaps/). */
export type Bucket = 'available' | 'pending' | 'in_transit' | 'held' | 'fees' | 'processor_clearing' | 'payout_clearing' | 'card_clearing'
  | 'crypto_clearing' | 'fx_clearing';

export interface Posting { ledger: string; bucket: Bucket; amount: number }

export const insufficientFunds = (param = 'amount') =>
  new ApiError(400, 'insufficient_funds', 'The balance does not cover this amount.', param);

export interface Entry { id: string; currency: string; postings: Posting[] }

export async function postEntry(db: Knex, entryId: string, currency: string, postings: Posting[], param = 'amount'): Promise<void> {
  await postEntries(db, [{ id: entryId, currency, postings }], param);
}

/**
 * Several entries in one statement. A transaction that moves several entries must post them so: the balance rows
 * of one statement are locked in one sorted order (migrations/260), and two statements would lock the first entry's
 * rows before the second's, against the order a concurrent single entry takes them (the clearing sweep's entries,
 * one per payment, deadlocked with a transfer between two of those accounts).
 */
export async function postEntries(db: Knex, entries: Entry[], param = 'amount'): Promise<void> {
  const values = postingValues(entries);
  if (values.length === 0) return;
  await refusingOverdraft(param, () => query(db, insertPostings(values.length / POSTING_PARAMS, 1), values));
}

/**
 * Entries posted with the request's COMMIT, in one statement (runtime/request-db.ts refusableAtCommit): the balance rows
 * they lock are held for the COMMIT's round trip only, where an entry posted mid-request holds them until its end, and
 * the requests moving one account's money wait on each other for that long (POST /payouts). A bucket taken below its
 * floor refuses the request at its COMMIT: 400 insufficient_funds naming `param`, and nothing of it is written. For a
 * write whose answer does not depend on the balance it leaves; anywhere but a request's transaction it posts at once.
 */
export async function postEntriesAtCommit(db: Knex, entries: Entry[], param = 'amount'): Promise<void> {
  const values = postingValues(entries);
  if (values.length === 0) return;
  await refusableAtCommit(db, insertPostings(values.length / POSTING_PARAMS, 1), values, (e) => overdraftRefusal(e, param));
}

/** The parameters an entry's postings fill, POSTING_PARAMS per posting: validated (integers, balanced), a bucket
 * named twice in one entry summed (a unique index allows one posting per bucket and entry), zero postings left out. */
function postingValues(entries: Entry[]): unknown[] {
  const values: unknown[] = [];
  for (const entry of entries) {
    const summed = new Map<string, Posting>();
    for (const p of entry.postings) {
      const key = `${p.ledger}\u0000${p.bucket}`;
      const seen = summed.get(key);
      summed.set(key, seen ? { ...seen, amount: seen.amount + p.amount } : { ...p });
    }
    const moving = [...summed.values()].filter((p) => p.amount !== 0);
    if (moving.some((p) => !Number.isSafeInteger(p.amount))) throw new Error(`ledger entry ${entry.id}: amounts must be integers in minor units`);
    if (moving.reduce((sum, p) => sum + p.amount, 0) !== 0) throw new Error(`ledger entry ${entry.id} does not balance`);
    for (const p of moving) values.push(entry.id, p.ledger, p.bucket, entry.currency, p.amount);
  }
  return values;
}

const POSTING_PARAMS = 5;

/** The insert of `count` postings whose parameters start at $first. */
function insertPostings(count: number, first: number): string {
  const rows = Array.from({ length: count }, (_, i) => {
    const n = first + i * POSTING_PARAMS;
    return `($${n}, $${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}::bigint)`;
  });
  return `insert into ledger_postings (entry_id, ledger_id, bucket, currency, amount) values ${rows.join(', ')}`;
}

/** Runs a statement posting money: a bucket it would take below its floor is a 400 insufficient_funds naming `param`. */
async function refusingOverdraft<T>(param: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    throw overdraftRefusal(e, param) ?? e;
  }
}

/** 400 insufficient_funds naming `param` when `e` is the balance floor's refusal. */
const overdraftRefusal = (e: unknown, param: string): ApiError | undefined =>
  ((e as { constraint?: string }).constraint === 'ledger_balances_floor' ? insufficientFunds(param) : undefined);
