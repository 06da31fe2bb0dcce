// Double-entry postings for payments, on the selling account's business ledger (a refund's reverse posting is
// handlers/refunds/refund-ledger.ts). What the buyer paid arrives in processor_clearing (owed by the processor), the
// fees go to the fees bucket, and the rest is pending until it clears (handlers/ledger/clearing.ts makes it available).
import type { Knex } from 'knex';
import { ledgerOf } from '../ledger/index.js';
import type { Entry } from '../ledger/index.js';

/** The settlement's entry, for the caller to post with what else the settlement moves (a partner's commission). */
export async function settledEntry(db: Knex, payment: { id: string; account_id: string; currency: string; total: number }, fees: number): Promise<Entry> {
  const ledger = await ledgerOf(db, payment.account_id);
  return { id: `${payment.id}:settled`, currency: payment.currency, postings: [
    { ledger, bucket: 'processor_clearing', amount: -payment.total },
    { ledger, bucket: 'fees', amount: fees },
    { ledger, bucket: 'pending', amount: payment.total - fees },
  ] };
}
