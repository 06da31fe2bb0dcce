import type { Handler } from '../../runtime/handler.js';
import { transition } from '../../runtime/state-machine.js';
import { COLLECT_PAYMENT } from './collection.js';
import { findPayment } from './find-payment.js';
import { nowMs } from '../shared/now.js';
import { holdsOf, takeHolds } from './holds.js';
import { loadPaymentView } from './payment-view.js';

/** POST /payments/{id}/retry: a failed payment is collected again in the background. Its failure gave back the promo
 * redemption and the stock unit (holds.ts), so they are taken again first (a 400 when they have run out since). */
export const retryPayment: Handler<'retryPayment'> = async ({ path }, ctx) => {
  const payment = await findPayment(ctx, path.id, 'payment:charge', { lock: true });
  const status = transition('Payment', payment.status, 'retry');
  await takeHolds(ctx.db, holdsOf(payment));
  await ctx.db('payments').where({ id: path.id }).update({
    status,
    failure_code: null,
    failure_message: null,
    next_payment_attempt_at: nowMs(ctx.db),
    updated_at: nowMs(ctx.db),
  });
  await ctx.addJob(COLLECT_PAYMENT, { payment_id: path.id }, { jobKey: `${COLLECT_PAYMENT}:${path.id}` });
  return loadPaymentView(ctx.db, path.id);
};
