import type { Handler } from '../../generated/handler.js';
import { findPayment } from './find-payment.js';
import { loadPaymentView } from './payment-view.js';
import { settlePayment } from './settlement.js';

/** POST /payments/{id}/capture: takes an authorized hold in full; the payment succeeds in this request. */
export const capturePayment: Handler<'capturePayment'> = async ({ path }, ctx) => {
  const payment = await findPayment(ctx, path.id, 'payment:charge', { lock: true });
  await settlePayment(ctx.db, payment, 'capture', (type, accountId, data) => ctx.emit(type, accountId, data));
  return loadPaymentView(ctx.db, path.id);
};
