// Collecting a failed payment again: POST /payments/{id}/retry and the memberships' dunning schedule
// (handlers/memberships/period-step.ts) share it. Its failure gave back the promo redemption and the stock unit
// (holds.ts), so they are taken again first (a 400 when they have run out since); a renewal charges the buyer's
// renewal card as it is now (handlers/memberships/renewal-retry.ts, through payment-outcomes-port.ts).
import type { Effects } from '../../generated/effects.js';
import { transition } from '../../generated/state-machine.js';
import { COLLECT_PAYMENT } from './collection.js';
import { nowMs } from '../shared/now.js';
import { holdsOf, takeHolds } from './holds.js';
import type { PaymentRow } from './payment-view.js';
import { paymentOutcomes } from './payment-outcomes-port.js';

/** `payment` is locked by the caller. */
export async function retryCollection(fx: Effects, payment: PaymentRow): Promise<void> {
  const status = transition('Payment', payment.status, 'retry');
  await takeHolds(fx.db, holdsOf(payment));
  const renewal = await paymentOutcomes().retryChanges(fx.db, payment);
  await fx.db('payments').where({ id: payment.id }).update({
    ...renewal,
    status,
    failure_code: null,
    failure_message: null,
    next_payment_attempt_at: nowMs(fx.db),
    updated_at: nowMs(fx.db),
  });
  await fx.addJob(COLLECT_PAYMENT, { payment_id: payment.id }, { jobKey: `${COLLECT_PAYMENT}:${payment.id}` });
}
