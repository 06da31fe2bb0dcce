import type { Handler } from '../../generated/handler.js';
import { findPayment } from './find-payment.js';
import { loadPaymentView } from './payment-view.js';
import { retryCollection } from './retry-collection.js';

/** POST /payments/{id}/retry: a failed payment is collected again in the background (retry-collection.ts). */
export const retryPayment: Handler<'retryPayment'> = async ({ path }, ctx) => {
  await retryCollection(ctx, await findPayment(ctx, path.id, 'payment:charge', { lock: true }));
  return loadPaymentView(ctx.db, path.id);
};
