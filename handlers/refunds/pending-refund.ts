// A pending refund of a payment the caller has locked: the row, its refund.created event and the refund job that
// settles it (settle-refund.ts), in the caller's transaction. POST /payments/{id}/refund, the network's rapid
// dispute resolution and a Resolution Center case's refund all make refunds this one way.
import type { Knex } from 'knex';
import { addJob } from '../../runtime/jobs.js';
import { recordEvent } from '../../generated/events.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { REFUND_PAYMENT } from './settle-refund.js';

import type { PaymentRow } from '../shared/payment-row.js';
import type { RefundRow } from '../../generated/rows.js';

type RefundablePayment = PaymentRow;

/** What is left to refund of a payment, counting pending refunds, so two quick refunds cannot over-refund. */
export async function refundableRemaining(db: Knex, payment: RefundablePayment): Promise<number> {
  const [{ sum }] = await db('refunds').where({ payment_id: payment.id }).whereIn('status', ['pending', 'succeeded'])
    .sum({ sum: 'amount' });
  return Number(payment.total) - Number(sum ?? 0);
}

export async function createPendingRefund(db: Knex, payment: RefundablePayment, amount: number): Promise<RefundRow> {
  const id = newId('rfnd_');
  const [refund]: RefundRow[] = await db('refunds').insert({
    id, payment_id: payment.id, account_id: payment.account_id, amount, currency: payment.currency,
    original_amount: amount, original_currency: payment.currency, provider: 'sandbox', status: 'pending',
  }).returning('*');
  await recordEvent(db, 'refund.created', payment.account_id, resources.Refund.view(refund));
  await addJob(db, REFUND_PAYMENT, { refund_id: id }, { jobKey: `${REFUND_PAYMENT}:${id}` });
  return refund;
}
