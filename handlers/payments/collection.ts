// collect_payment: asks the sandbox processor to charge a processing payment, outside any request. It is
// idempotent: a payment no longer processing (already collected, voided, retried twice) is left alone.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { recordEvent } from '../../generated/events.js';
import { transition } from '../../generated/state-machine.js';
import { endPayment } from './holds.js';
import { cardProcessor } from '../shared/card-processor-port.js';
import { loadPaymentView, type PaymentRow } from './payment-view.js';
import { settlePayment } from './settlement.js';
import { nowMs } from '../shared/now.js';
import { paymentOutcomes } from './payment-outcomes-port.js';

export const COLLECT_PAYMENT = 'collect_payment';

export async function collectPayment(db: Knex, paymentId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const payment: PaymentRow | undefined = await trx('payments').where({ id: paymentId }).forUpdate().first();
    if (!payment || payment.status !== 'processing') return;
    const emit = (type: Parameters<typeof recordEvent>[1], accountId: string | null, data: unknown) => recordEvent(trx, type, accountId, data);
    const decision = cardProcessor().decideCharge(await cardProcessor().cardBehaviourOf(trx, payment), payment.authentication);
    const stamp = nowMs(trx);
    if (!decision.approved) {
      // Declined: the promo redemption and the stock unit go back (holds.ts).
      await endPayment(trx, payment, 'fail', {
        failure_code: decision.code,
        failure_message: decision.message,
        last_payment_attempt_at: stamp,
        updated_at: stamp,
      });
      // A declined renewal: the membership goes past_due with the next retry on the payment, or expires (dunning).
      await paymentOutcomes().declined(trx, payment);
      await emit('payment.failed', payment.account_id, await loadPaymentView(trx, paymentId));
    } else if (!payment.capture) {
      await trx('payments').where({ id: paymentId }).update({
        status: transition('Payment', payment.status, 'authorize'), last_payment_attempt_at: stamp, updated_at: stamp,
      });
    } else {
      await settlePayment(trx, payment, 'succeed', emit);
    }
  });
}

export const collectPaymentTask = (db: Knex): Task => async (payload) => {
  await collectPayment(db, (payload as { payment_id: string }).payment_id);
};
