import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { transition } from '../../generated/state-machine.js';
import { createPendingRefund, refundableRemaining, refuseChargedBack } from '../refunds/index.js';
import { findPayment } from './find-payment.js';
import { loadPaymentView } from './payment-view.js';
import { minorAmount } from '../shared/money.js';

/**
 * POST /payments/{id}/refund: a pending refund of partial_amount (else all that remains), settled in the
 * background. Pending refunds count against what remains, so two quick refunds cannot over-refund.
 */
export const refundPayment: Handler<'refundPayment'> = async ({ path, body }, ctx) => {
  const payment = await findPayment(ctx, path.id, 'payment:charge', { lock: true });
  // Refundable exactly when a refund could later settle on it.
  transition('Payment', payment.status, 'refund_partially');
  await refuseChargedBack(ctx.db, payment.id);
  const remaining = await refundableRemaining(ctx.db, payment);
  if (remaining <= 0) throw invalid('This payment is already fully refunded (counting pending refunds)', 'partial_amount');
  const amount = body.partial_amount
    ?? (body.partial_amount_decimal === undefined ? remaining : minorAmount(body.partial_amount_decimal, payment.currency, 'partial_amount'));
  if (amount > remaining) {
    throw invalid(`partial_amount ${amount} is more than the ${remaining} left to refund (counting pending refunds)`, 'partial_amount');
  }
  await createPendingRefund(ctx.db, payment, amount);
  return loadPaymentView(ctx.db, path.id);
};
