// Double-entry postings for payments and refunds, on the selling account's business ledger. What the buyer paid
// arrives in processor_clearing (owed by the processor), the fees go to the fees bucket, and the rest is pending
// until it clears (handlers/ledger/clearing.ts makes it available).
import type { Knex } from 'knex';
import { ledgerOf } from '../ledger/ledgers.js';
import { postEntry } from '../ledger/post.js';

export async function postPaymentSettled(db: Knex, payment: { id: string; account_id: string; currency: string; total: number }, fees: number): Promise<void> {
  const ledger = await ledgerOf(db, payment.account_id);
  await postEntry(db, `${payment.id}:settled`, payment.currency, [
    { ledger, bucket: 'processor_clearing', amount: -payment.total },
    { ledger, bucket: 'fees', amount: fees },
    { ledger, bucket: 'pending', amount: payment.total - fees },
  ]);
}

/** A refund takes the amount back out of the pending balance (fees are not returned); pending may go negative. */
export async function postRefund(db: Knex, refund: { id: string; account_id: string; currency: string; amount: number }): Promise<void> {
  const ledger = await ledgerOf(db, refund.account_id);
  await postEntry(db, refund.id, refund.currency, [
    { ledger, bucket: 'pending', amount: -refund.amount },
    { ledger, bucket: 'processor_clearing', amount: refund.amount },
  ]);
}
