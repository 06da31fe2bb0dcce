import type { Handler } from '../../runtime/handler.js';
import { newId } from '../../runtime/ids.js';
import { query } from '../../runtime/request-db.js';
import { addJobExpression, jobParams } from '../../runtime/jobs.js';
import { effectivePolicy, needsAuthentication, type ThreeDSecurePolicy } from '../processor/processor.js';
import { usdMinorUnits } from '../shared/fx-rates.js';
import { authenticationTokenHash } from '../sandbox/authentication-link.js';
import { COLLECT_PAYMENT } from './collection.js';
import { takeHolds } from './holds.js';
import { resolveSource } from './payment-source.js';
import { priceOf } from './pricing.js';
import { paymentView, type PaymentRow } from './payment-view.js';

// Fixed SQL on plain pg (runtime/request-db.ts query): the write of every charge, queueing its collection in the same
// statement unless the buyer must act first ($28).
const INSERT_PAYMENT = `with inserted as (
    insert into payments (id, account_id, plan_id, product_id, member_id, user_id, payment_method_id,
      confirmation_token_id, status, billing_reason, currency, subtotal, tax_amount, total, usd_total, capture, off_session,
      return_url, three_d_secure_policy, authentication, next_action, payment_instrument, promo_code_id, discount_amount,
      stock_held, save_payment_method, authentication_token, payment_method_type)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24,
      $25, $26, $27, $35)
    returning *)
  select inserted.*, (select (${addJobExpression(29)}).id where $28::boolean) as "$collection_job" from inserted`;

/**
 * POST /payments: prices the charge (with its promo code's discount), takes what the payment holds (the promo
 * redemption, a unit of stock; holds.ts), decides whether a 3-D Secure step is needed, and queues the collection in
 * the same transaction (unless the buyer must act first). A saved-card charge without promo code on an unlimited
 * variant takes nothing: no query beyond the source with its price, and the insert.
 */
export const createPayment: Handler<'createPayment'> = async ({ body }, ctx) => {
  const source = await resolveSource(ctx, body);
  const price = await priceOf(ctx.db, body, source.buyerUserId, source.variant);
  const total = price.subtotal - price.discount + price.tax;
  const accountPolicy = price.accountPolicy
    ?? (await ctx.db('accounts').where({ id: body.account_id }).first('three_d_secure_policy')).three_d_secure_policy;
  const policy = effectivePolicy((price.threeDSecurePolicy ?? accountPolicy) as ThreeDSecurePolicy, total);
  // A wallet authenticated the buyer on their device (its cryptogram): no 3-D Secure step on top.
  const needsStep = !source.walletAuthenticated && needsAuthentication(source.behaviour, policy, source.buyerPresent);
  const waitsOnBuyer = needsStep && source.buyerPresent;
  const stockHeld = price.stock !== null;
  // Takes nothing (and queries nothing) without a promo code or a limited stock.
  await takeHolds(ctx.db, { promoCodeId: price.promoCodeId, planId: price.planId, stock: stockHeld },
    body.promo_code !== undefined ? 'promo_code' : 'promo_code_id');
  const id = newId('pay_');
  // The buyer's 3-D Secure step happens on the sandbox's page, behind a single-use secret (handlers/sandbox).
  // Its next_action is stored without the url, which views make again from the id.
  const link = waitsOnBuyer ? authenticationTokenHash(id) : null;
  const [row] = await query<PaymentRow>(ctx.db, INSERT_PAYMENT, [
    id, body.account_id, price.planId, price.productId, source.memberId, source.buyerUserId, source.paymentMethodId,
    source.confirmationTokenId, waitsOnBuyer ? 'requires_action' : 'processing', price.billingReason, price.currency,
    price.subtotal, price.tax, total, usdMinorUnits(total, price.currency, price.usdRateE8), body.capture, body.off_session ?? !source.buyerPresent,
    body.return_url ?? null, policy,
    // Without the buyer a required step cannot happen; the processor then refuses the charge.
    needsStep ? 'required' : 'not_required',
    link ? JSON.stringify({ type: 'redirect_to_url', redirect_to_url: { return_url: body.return_url ?? null } }) : null,
    JSON.stringify(source.instrument),
    price.promoCodeId, price.discount, stockHeld, body.save_payment_method, link,
    !waitsOnBuyer, ...jobParams(COLLECT_PAYMENT, { payment_id: id }, { jobKey: `${COLLECT_PAYMENT}:${id}` }),
    source.method,
  ]);
  // The response is the row just written with the buyer already at hand: no second read.
  return paymentView(row, source.buyer);
};
