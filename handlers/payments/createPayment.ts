import type { Handler } from '../../runtime/handler.js';
import { newId } from '../../runtime/ids.js';
import { effectivePolicy, needsAuthentication, toUsd, type ThreeDSecurePolicy } from '../processor/processor.js';
import { COLLECT_PAYMENT } from './collection.js';
import { resolveSource } from './payment-source.js';
import { priceOf } from './pricing.js';
import { paymentView } from './payment-view.js';

/** Where the sandbox sends a buyer for their 3-D Secure step. */
const authenticationUrl = (paymentId: string) => `https://checkout.sandbox.example/3ds/${paymentId}`;

/**
 * POST /payments: prices the charge, decides whether a 3-D Secure step is needed, and queues the collection in the
 * same transaction (unless the buyer must act first).
 */
export const createPayment: Handler<'createPayment'> = async ({ body }, ctx) => {
  const source = await resolveSource(ctx, body);
  const price = await priceOf(ctx.db, body, source.buyerUserId);
  const total = price.subtotal + price.tax;
  const accountPolicy = price.accountPolicy
    ?? (await ctx.db('accounts').where({ id: body.account_id }).first('three_d_secure_policy')).three_d_secure_policy;
  const policy = effectivePolicy((price.threeDSecurePolicy ?? accountPolicy) as ThreeDSecurePolicy, total);
  const needsStep = needsAuthentication(source.behaviour, policy, source.buyerPresent);
  const waitsOnBuyer = needsStep && source.buyerPresent;
  const id = newId('pay_');
  const [row] = await ctx.db('payments').insert({
    id,
    account_id: body.account_id,
    plan_id: price.planId,
    product_id: price.productId,
    member_id: source.memberId,
    user_id: source.buyerUserId,
    payment_method_id: source.paymentMethodId,
    confirmation_token_id: source.confirmationTokenId,
    status: waitsOnBuyer ? 'requires_action' : 'processing',
    billing_reason: price.billingReason,
    currency: price.currency,
    subtotal: price.subtotal,
    tax_amount: price.tax,
    total,
    usd_total: toUsd(total, price.currency),
    capture: body.capture,
    off_session: body.off_session ?? !source.buyerPresent,
    return_url: body.return_url ?? null,
    three_d_secure_policy: policy,
    // Without the buyer a required step cannot happen; the processor then refuses the charge.
    authentication: needsStep ? 'required' : 'not_required',
    next_action: waitsOnBuyer
      ? JSON.stringify({ type: 'redirect_to_url', redirect_to_url: { url: authenticationUrl(id), return_url: body.return_url ?? null } })
      : null,
    payment_instrument: JSON.stringify(source.instrument),
  }).returning('*');
  if (!waitsOnBuyer) await ctx.addJob(COLLECT_PAYMENT, { payment_id: id }, { jobKey: `${COLLECT_PAYMENT}:${id}` });
  // The response is the row just written with the buyer already at hand: no second read.
  return paymentView({
    ...row, buyer_username: source.buyer.username, buyer_name: source.buyer.name, buyer_picture: source.buyer.profile_picture_url,
  });
};
