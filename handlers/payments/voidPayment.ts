import type { Handler } from '../../runtime/handler.js';
import { transition } from '../../runtime/state-machine.js';
import { findPayment, now } from './find-payment.js';
import { loadPaymentView } from './payment-view.js';

/** POST /payments/{id}/void: releases an authorization hold, or abandons a payment waiting on 3-D Secure. */
export const voidPayment: Handler<'voidPayment'> = async ({ path }, ctx) => {
  const payment = await findPayment(ctx, path.id, 'payment:charge', { lock: true });
  await ctx.db('payments').where({ id: path.id })
    .update({ status: transition('Payment', payment.status, 'void'), next_action: null, updated_at: now(ctx) });
  return loadPaymentView(ctx.db, path.id);
};
