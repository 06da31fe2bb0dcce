import type { Handler } from '../../runtime/handler.js';
import { transition } from '../../runtime/state-machine.js';
import { COLLECT_PAYMENT } from './collection.js';
import { findPayment, now } from './find-payment.js';
import { loadPaymentView } from './payment-view.js';

/** POST /payments/{id}/confirm_action: the sandbox's stand-in for the buyer finishing (or failing) 3-D Secure. */
export const confirmPaymentAction: Handler<'confirmPaymentAction'> = async ({ path, body }, ctx) => {
  const payment = await findPayment(ctx, path.id, 'payment:charge', { lock: true });
  if (body.outcome === 'succeed') {
    await ctx.db('payments').where({ id: path.id }).update({
      status: transition('Payment', payment.status, 'complete_action'),
      authentication: 'authenticated',
      next_action: null,
      updated_at: now(ctx),
    });
    await ctx.addJob(COLLECT_PAYMENT, { payment_id: path.id }, { jobKey: `${COLLECT_PAYMENT}:${path.id}` });
    return loadPaymentView(ctx.db, path.id);
  }
  await ctx.db('payments').where({ id: path.id }).update({
    status: transition('Payment', payment.status, 'fail_action'),
    next_action: null,
    failure_code: 'authentication_failed',
    failure_message: 'The buyer did not complete 3-D Secure authentication',
    last_payment_attempt_at: now(ctx),
    updated_at: now(ctx),
  });
  const view = await loadPaymentView(ctx.db, path.id);
  await ctx.emit('payment.failed', payment.account_id, view);
  return view;
};
