import type { Handler } from '../../generated/handler.js';
import { transition } from '../../generated/state-machine.js';
import { nowMs } from '../shared/now.js';
import { findPayment } from './find-payment.js';
import { loadPaymentView } from './payment-view.js';

/** PATCH /payments/{id}: a new return_url while the buyer can still act on the payment (requires_action). */
export const updatePayment: Handler<'updatePayment'> = async ({ path, body }, ctx) => {
  const payment = await findPayment(ctx, path.id, 'payment:charge', 'lock');
  transition('Payment', payment.status, 'change_return_url');
  // The column is where the sandbox's authentication page sends the buyer; next_action shows it to the seller.
  await ctx.db('payments').where({ id: payment.id }).update({
    return_url: body.return_url,
    next_action: ctx.db.raw(`case when next_action -> 'redirect_to_url' is not null
      then jsonb_set(next_action, '{redirect_to_url,return_url}', to_jsonb(?::text)) else next_action end`, [body.return_url]),
    updated_at: nowMs(ctx.db),
  });
  return loadPaymentView(ctx.db, String(payment.id));
};
