import type { Handler } from '../../generated/handler.js';
import { findPayment } from './find-payment.js';
import { nowMs } from '../shared/now.js';
import { endPayment } from './holds.js';
import { loadPaymentView } from './payment-view.js';

/** POST /payments/{id}/void: releases an authorization hold, or abandons a payment waiting on 3-D Secure; either way
 * the promo redemption and the stock unit go back (holds.ts). Emits payment.canceled. */
export const voidPayment: Handler<'voidPayment'> = async ({ path }, ctx) => {
  const payment = await findPayment(ctx, path.id, 'payment:charge', { lock: true });
  await endPayment(ctx.db, payment, 'void', { next_action: null, authentication_token: null, updated_at: nowMs(ctx.db) });
  const view = await loadPaymentView(ctx.db, path.id);
  await ctx.emit('payment.canceled', payment.account_id, view);
  return view;
};
