// Double-entry postings for payments and refunds, on the selling account. Every movement's postings share an
// entry_id and sum to zero: what the buyer paid arrives in processor_clearing (owed by the processor), the fees go
// to the fees bucket, and the rest is the account's pending balance.
import type { Knex } from 'knex';

export async function postPaymentSettled(db: Knex, payment: { id: string; account_id: string; currency: string; total: number }, fees: number): Promise<void> {
  const entry = `${payment.id}:settled`;
  const posting = (bucket: string, amount: number) =>
    ({ entry_id: entry, account_id: payment.account_id, bucket, currency: payment.currency, amount });
  await db('ledger_postings').insert([
    posting('processor_clearing', -payment.total),
    posting('fees', fees),
    posting('pending', payment.total - fees),
  ]);
}

/** A refund takes the amount back out of the pending balance (fees are not returned). */
export async function postRefund(db: Knex, refund: { id: string; account_id: string; currency: string; amount: number }): Promise<void> {
  const posting = (bucket: string, amount: number) =>
    ({ entry_id: refund.id, account_id: refund.account_id, bucket, currency: refund.currency, amount });
  await db('ledger_postings').insert([posting('pending', -refund.amount), posting('processor_clearing', refund.amount)]);
}
