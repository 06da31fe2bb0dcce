// The one way money moves: a balanced entry of postings, written in the caller's transaction. The database moves the
// materialised balances in the same statement and refuses a spendable bucket below zero
// (migrations/200_ledgers.ts), so a floor holds whatever runs concurrently: the losing request gets a 400.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { ApiError } from '../../runtime/errors.js';

/** Spendable: available (withdrawable), in_transit (on its way out in a payout), held (reserved for a claim link).
 * Unfloored: pending (clearing; may go negative), fees, and the contra buckets for money owed by or to the outside
 * (the platform's crypto_clearing holds the stablecoins deposits brought in, its fx_clearing the currencies swaps
 * exchanged; handlers/crypto_network/, handlers/swaps/). */
export type Bucket = 'available' | 'pending' | 'in_transit' | 'held' | 'fees' | 'processor_clearing' | 'payout_clearing' | 'card_clearing'
  | 'crypto_clearing' | 'fx_clearing';

export interface Posting { ledger: string; bucket: Bucket; amount: number }

export const insufficientFunds = (param = 'amount') =>
  new ApiError(400, 'insufficient_funds', 'The balance does not cover this amount.', param);

export async function postEntry(db: Knex, entryId: string, currency: string, postings: Posting[], param = 'amount'): Promise<void> {
  // An entry posts to each bucket once (a unique index): postings naming the same bucket are summed.
  const summed = new Map<string, Posting>();
  for (const p of postings) {
    const key = `${p.ledger}\u0000${p.bucket}`;
    const seen = summed.get(key);
    summed.set(key, seen ? { ...seen, amount: seen.amount + p.amount } : { ...p });
  }
  const moving = [...summed.values()].filter((p) => p.amount !== 0);
  if (moving.some((p) => !Number.isSafeInteger(p.amount))) throw new Error(`ledger entry ${entryId}: amounts must be integers in minor units`);
  if (moving.reduce((sum, p) => sum + p.amount, 0) !== 0) throw new Error(`ledger entry ${entryId} does not balance`);
  if (moving.length === 0) return;
  const values = moving.map((_, i) => `($1, $${i * 3 + 3}, $${i * 3 + 4}, $2, $${i * 3 + 5}::bigint)`).join(', ');
  try {
    await query(db, `insert into ledger_postings (entry_id, ledger_id, bucket, currency, amount) values ${values}`,
      [entryId, currency, ...moving.flatMap((p) => [p.ledger, p.bucket, p.amount])]);
  } catch (e) {
    if ((e as { constraint?: string }).constraint === 'ledger_balances_floor') throw insufficientFunds(param);
    throw e;
  }
}
