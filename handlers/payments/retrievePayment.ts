import type { Handler } from '../../runtime/handler.js';
import { findPayment } from './find-payment.js';
import { loadPaymentView } from './payment-view.js';

/** GET /payments/{id} */
export const retrievePayment: Handler<'retrievePayment'> = async ({ path }, ctx) => {
  await findPayment(ctx, path.id, 'payment:basic:read');
  return loadPaymentView(ctx.db, path.id);
};
