// Double-entry postings for payments and refunds, on the selling account's business ledger. What the buyer paid
// arrives in processor_clearing (owed by the processor), the fees go to the fees bucket, and the rest is pending
// until it clears (handlers/ledger/clearing.ts makes it available).
import type { Knex } from 'knex';
import { ledgerOf } from '../ledger/ledgers.js';
import type { Entry } from '../ledger/post.js';

/** The settlement's entry, for the caller to post with what else the settlement moves (a partner's commission). */
export async function settledEntry(db: Knex, payment: { id: string; account_id: string; currency: string; total: number }, fees: number): Promise<Entry> {
  const ledger = await ledgerOf(db, payment.account_id);
  return { id: `${payment.id}:settled`, currency: payment.currency, postings: [
    { ledger, bucket: 'processor_clearing', amount: -payment.total },
    { ledger, bucket: 'fees', amount: fees },
    { ledger, bucket: 'pending', amount: payment.total - fees },
  ] };
}

/** A refund takes the amount back out of the pending balance (fees are not returned); pending may go negative. The
 * entry, for the caller to post with what else its transaction moves (handlers/refunds/settle-refund.ts). */
export async function refundEntry(db: Knex, refund: { id: string; account_id: string; currency: string; amount: number }): Promise<Entry> {
  const ledger = await ledgerOf(db, refund.account_id);
  return { id: refund.id, currency: refund.currency, postings: [
    { ledger, bucket: 'pending', amount: -refund.amount },
    { ledger, bucket: 'processor_clearing', amount: refund.amount },
  ] };
}
