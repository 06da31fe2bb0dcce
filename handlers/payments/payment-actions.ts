// The rules of the actions on one payment (plain actions, spec/areas/payments.yaml): the runtime finds and locks the
// payment under the owner rules (the buyer's own token refused), runs the rule, and answers the payment as it is then.
import type { ActionHook } from '../../generated/plain-hooks.js';
import { invalid } from '../../runtime/errors.js';
import { transition } from '../../generated/state-machine.js';
import { createPendingRefund, refundableRemaining, refuseChargedBack } from '../refunds/index.js';
import { minorAmount } from '../shared/money.js';
import { nowMs } from '../shared/now.js';
import { finishPaymentAuthentication } from './authentication.js';
import { endPayment } from './holds.js';
import { retryCollection } from './retry-collection.js';
import { settlePayment } from './settlement.js';

/** capture: takes an authorized hold in full; the payment succeeds in this request. */
export const capture: ActionHook<'capturePayment'> = async (payment, _input, ctx) => {
  await settlePayment(ctx.db, payment, 'capture', (type, accountId, data) => ctx.emit(type, accountId, data));
};

/** void: releases an authorization hold, or abandons a payment waiting on 3-D Secure; either way the promo
 * redemption and the stock unit go back (holds.ts). */
export const voidHold: ActionHook<'voidPayment'> = async (payment, _input, ctx) => {
  await endPayment(ctx.db, payment, 'void', { next_action: null, authentication_token: null, updated_at: nowMs(ctx.db) });
};

/** retry: a failed payment is collected again in the background (retry-collection.ts). */
export const retry: ActionHook<'retryPayment'> = (payment, _input, ctx) => retryCollection(ctx, payment);

/** confirm_action: the sandbox's stand-in for the buyer finishing (or failing) 3-D Secure. */
export const confirmAction: ActionHook<'confirmPaymentAction'> = async (payment, { body }, ctx) => {
  await finishPaymentAuthentication(ctx, payment, body.outcome);
};

/** refund: a pending refund of partial_amount (else all that remains), settled in the background. Pending refunds
 * count against what remains, so two quick refunds cannot over-refund. */
export const refund: ActionHook<'refundPayment'> = async (payment, { body }, ctx) => {
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
};
