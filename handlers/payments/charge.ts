// The write of every charge, for POST /payments and for the renewals the membership lifecycle bills
// (handlers/memberships/renewal-charge.ts): from a source (payment-source.ts) and a price (pricing.ts), it decides
// whether a 3-D Secure step is needed, takes what the payment holds (holds.ts) and inserts the payment, queueing its
// collection unless the buyer must act first. No HTTP context: it needs the database only.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { query } from '../../runtime/request-db.js';
import { addJobAtCommit, addJobExpression, jobParams } from '../../runtime/jobs.js';
import type { Payment } from '../../generated/types.js';
import { cardProcessor, type ThreeDSecurePolicy } from '../shared/card-processor-port.js';
import { usdMinorUnits } from '../shared/fx-rates.js';
import { authenticationTokenHash } from '../shared/authentication-link.js';
import { COLLECT_PAYMENT } from './collection.js';
import { takeHolds } from './holds.js';
import type { PaymentSource } from './payment-source.js';
import type { Price } from './pricing.js';
import { paymentView, type PaymentRow } from './payment-view.js';

// Fixed SQL on plain pg (runtime/request-db.ts query): the write of every charge, queueing its collection in the same
// statement when $28 (outside a request, unless the buyer must act first).
const INSERT_PAYMENT = `with inserted as (
    insert into payments (id, account_id, plan_id, product_id, member_id, user_id, payment_method_id,
      confirmation_token_id, status, billing_reason, currency, subtotal, tax_amount, total, usd_total, capture, off_session,
      return_url, three_d_secure_policy, authentication, next_action, payment_instrument, promo_code_id, discount_amount,
      stock_held, save_payment_method, authentication_token, payment_method_type, membership_id, renewal_period_start,
      tax_country)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24,
      $25, $26, $27, $36, $37, $38::timestamptz, $39)
    returning *)
  select inserted.*, (select (${addJobExpression(29)}).id where $28::boolean) as "$collection_job" from inserted`;

export interface Charge {
  accountId: string;
  source: PaymentSource;
  price: Price;
  capture: boolean;
  offSession?: boolean;
  returnUrl?: string;
  saveMethod: boolean;
  /** the body field that named the promo code, for a refusal when its redemptions ran out */
  promoParam: 'promo_code' | 'promo_code_id';
  /** the buyer's country the price was taxed by: a renewal is taxed by it again */
  taxCountry?: string | null;
  /** a renewal: the membership and the start of the period it pays (one such payment per period: a unique index) */
  renewal?: { membershipId: string; periodStart: string };
}

/** Writes the payment and queues its collection; returns it as the API shows it. */
export async function insertCharge(db: Knex, charge: Charge): Promise<Payment> {
  const { source, price } = charge;
  const total = price.subtotal - price.discount + price.tax;
  const accountPolicy = price.accountPolicy
    ?? (await db('accounts').where({ id: charge.accountId }).first('three_d_secure_policy')).three_d_secure_policy;
  const policy = cardProcessor().effectivePolicy((price.threeDSecurePolicy ?? accountPolicy) as ThreeDSecurePolicy, total);
  // A wallet authenticated the buyer on their device (its cryptogram): no 3-D Secure step on top.
  const needsStep = !source.walletAuthenticated && cardProcessor().needsAuthentication(source.behaviour, policy, source.buyerPresent);
  const waitsOnBuyer = needsStep && source.buyerPresent;
  const stockHeld = price.stock !== null;
  // Takes nothing (and queries nothing) without a promo code or a limited stock.
  await takeHolds(db, { promoCodeId: price.promoCodeId, planId: price.planId, stock: stockHeld }, charge.promoParam);
  const id = newId('pay_');
  // The buyer's 3-D Secure step happens on the sandbox's page, behind a single-use secret (handlers/sandbox).
  // Its next_action is stored without the url, which views make again from the id.
  const link = waitsOnBuyer ? authenticationTokenHash(id) : null;
  // In a request its collection's job goes with the COMMIT, with the request's other jobs (runtime/jobs.ts); a
  // renewal's, in the worker, with the payment.
  const collection = [COLLECT_PAYMENT, { payment_id: id }, { jobKey: `${COLLECT_PAYMENT}:${id}` }] as const;
  const collectedAtCommit = !waitsOnBuyer && addJobAtCommit(db, ...collection);
  const [row] = await query<PaymentRow>(db, INSERT_PAYMENT, [
    id, charge.accountId, price.planId, price.productId, source.memberId, source.buyerUserId, source.paymentMethodId,
    source.confirmationTokenId, waitsOnBuyer ? 'requires_action' : 'processing', price.billingReason, price.currency,
    price.subtotal, price.tax, total, usdMinorUnits(total, price.currency, price.usdRateE8), charge.capture,
    charge.offSession ?? !source.buyerPresent, charge.returnUrl ?? null, policy,
    // Without the buyer a required step cannot happen; the processor then refuses the charge.
    needsStep ? 'required' : 'not_required',
    link ? JSON.stringify({ type: 'redirect_to_url', redirect_to_url: { return_url: charge.returnUrl ?? null } }) : null,
    JSON.stringify(source.instrument),
    price.promoCodeId, price.discount, stockHeld, charge.saveMethod, link,
    !waitsOnBuyer && !collectedAtCommit, ...jobParams(...collection),
    source.method, charge.renewal?.membershipId ?? null, charge.renewal?.periodStart ?? null, charge.taxCountry ?? null,
  ]);
  // The response is the row just written with the buyer already at hand: no second read.
  return paymentView(row, source.buyer);
}
