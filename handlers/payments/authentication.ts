// Finishing a payment's 3-D Secure step, for POST /payments/{id}/confirm_action and for the buyer on the sandbox's
// authentication page: succeed moves it to processing and queues the collection; fail fails it.
import type { Effects } from '../../generated/effects.js';
import { transition } from '../../generated/state-machine.js';
import type { Payment } from '../../generated/types.js';
import { COLLECT_PAYMENT } from './collection.js';
import { endPayment } from './holds.js';
import { nowMs } from '../shared/now.js';
import { loadPaymentView, type PaymentRow } from './payment-view.js';

/** `payment` is locked by the caller. Returns the payment as it now is. */
export async function finishPaymentAuthentication(fx: Effects, payment: PaymentRow, outcome: 'succeed' | 'fail'): Promise<Payment> {
  if (outcome === 'succeed') {
    await fx.db('payments').where({ id: payment.id }).update({
      status: transition('Payment', payment.status, 'complete_action'),
      authentication: 'authenticated',
      next_action: null,
      authentication_token: null,
      updated_at: nowMs(fx.db),
    });
    await fx.addJob(COLLECT_PAYMENT, { payment_id: payment.id }, { jobKey: `${COLLECT_PAYMENT}:${payment.id}` });
    return loadPaymentView(fx.db, payment.id);
  }
  // A failed step fails the payment and gives back its promo redemption and stock unit (holds.ts).
  await endPayment(fx.db, payment, 'fail_action', {
    next_action: null,
    authentication_token: null,
    failure_code: 'authentication_failed',
    failure_message: 'The buyer did not complete 3-D Secure authentication',
    last_payment_attempt_at: nowMs(fx.db),
    updated_at: nowMs(fx.db),
  });
  const view = await loadPaymentView(fx.db, payment.id);
  await fx.emit('payment.failed', payment.account_id, view);
  return view;
}
