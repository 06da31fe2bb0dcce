// What a payment charges: a variant's price (less its promo code's discount, plus tax by the buyer's country on the
// discounted price), or an explicit untaxed amount.
import type { Knex } from 'knex';
import { invalid, notFound } from '../../runtime/errors.js';
import { query } from '../../runtime/request-db.js';
import { calculateTax } from '../shared/tax.js';
import { basisPointsOf } from '../shared/money.js';
import type { ThreeDSecurePolicy } from '../shared/card-processor-port.js';
import { usdRateOf } from '../shared/fx-rates.js';
import type { Tables } from '../../generated/rows.js';

export interface Price {
  planId: string | null;
  productId: string | null;
  currency: string;
  /** the currency's USD rate times 10^8 (handlers/shared/fx-rates.ts), for the payment's usd_total */
  usdRateE8: bigint;
  /** the price before the discount */
  subtotal: number;
  /** what the promo code takes off subtotal (0 without one) */
  discount: number;
  /** tax on subtotal - discount */
  tax: number;
  /** the promo code applied (validated here; its redemption is taken by holds.ts) */
  promoCodeId: string | null;
  /** the variant's stock when it has one (a unit is taken by holds.ts); null: unlimited, or no variant */
  stock: number | null;
  billingReason: 'one_time' | 'subscription_create' | 'subscription_cycle' | 'manual';
  /** the variant's own policy; null means the account's */
  threeDSecurePolicy: ThreeDSecurePolicy | null;
  /** the account's policy when the price came from a variant (read in the same query); undefined otherwise */
  accountPolicy?: ThreeDSecurePolicy;
}

interface PriceInput {
  account_id: string;
  plan_id?: string;
  amount?: number;
  currency?: string;
  country?: string;
  promo_code?: string;
  promo_code_id?: string;
  /** a renewal billed by the membership lifecycle: takes no stock (the buyer holds their unit) and no promo code */
  renewal?: boolean;
}

/** A promo code as the buyer named it: by code (as typed) or by id, and the body field that named it. */
interface PromoInput {
  param: 'promo_code' | 'promo_code_id';
  value: string;
}

// Whether the buyer holds a live membership of the variant: a charge of a renewal variant is then a renewal,
// which a deleted variant still takes (memberships already sold keep working; new purchases of it are a 404).
const held = (buyer: string) => `select 1 from memberships m where m.account_id = v.account_id and m.user_id = ${buyer}
      and m.plan_id = v.id and m.status in ('trialing', 'active', 'past_due')`;

/** The variant's price row for a buyer: the variant (with its stock), its account's 3-D Secure policy, and whether the
 * buyer already holds it (a renewal). Each argument is an SQL expression: a parameter, or a column of the statement
 * this one is part of (payment-source.ts reads it with the member, whose user is the buyer). */
export const variantPriceSql = (plan: string, account: string, buyer: string) => `select v.id, v.product_id, v.currency,
    v.plan_type, v.initial_price, v.renewal_price, v.three_d_secure_policy, v.stock, a.three_d_secure_policy as account_policy,
    exists (${held(buyer)}) as held
  from plans v join products p on p.id = v.product_id join accounts a on a.id = v.account_id
  where v.id = ${plan} and v.account_id = ${account} and p.deleted_at is null and (v.deleted_at is null
    or (v.plan_type = 'renewal' and exists (${held(buyer)})))`;

// Fixed SQL on plain pg: a variant purchase whose buyer is known first (a confirmation token's) runs it
// (runtime/request-db.ts query).
const VARIANT_PRICE = variantPriceSql('$1', '$2', '$3');

/** A variant's price row (variantPriceSql), read ahead with the payment's source; null when there is no such variant. */
export type VariantPriceRow = (Pick<Tables['plans'], 'id' | 'product_id' | 'currency' | 'plan_type' | 'initial_price'
  | 'renewal_price' | 'three_d_secure_policy' | 'stock'> & { account_policy: Tables['accounts']['three_d_secure_policy']; held: boolean })
  | null;

// Only when the buyer names a promo code. Codes are stored upper-cased; expiry is judged by the database's clock.
const PROMO = `select id, status, amount_off, percent_off, currency, product_id, plan_id, max_redemptions, redemptions,
    (expires_at is not null and expires_at <= now()) as expired
  from promo_codes`;
const PROMO_BY_ID = `${PROMO} where id = $1 and account_id = $2`;
const PROMO_BY_CODE = `${PROMO} where code = $1 and account_id = $2`;
type PromoRow = Pick<Tables['promo_codes'], 'id' | 'status' | 'amount_off' | 'percent_off' | 'currency' | 'product_id' | 'plan_id'
  | 'max_redemptions' | 'redemptions'> & { expired: boolean };

/** `variant`: the plan_id's price row when it was read with the source (payment-source.ts); read here otherwise. */
export async function priceOf(db: Knex, body: PriceInput, buyerUserId: string, variant?: VariantPriceRow): Promise<Price> {
  if (body.promo_code !== undefined && body.promo_code_id !== undefined) {
    throw invalid('Pass either promo_code or promo_code_id, not both', 'promo_code_id');
  }
  const promo: PromoInput | null = body.promo_code !== undefined ? { param: 'promo_code', value: body.promo_code }
    : body.promo_code_id !== undefined ? { param: 'promo_code_id', value: body.promo_code_id } : null;
  if (body.plan_id) {
    if (body.amount !== undefined) throw invalid('Pass either plan_id or amount with currency, not both', 'amount');
    if (body.currency !== undefined) throw invalid("A variant purchase is charged in the variant's currency; do not pass currency", 'currency');
    const plan = variant !== undefined ? variant : (await query<NonNullable<VariantPriceRow>>(db, VARIANT_PRICE, [body.plan_id, body.account_id, buyerUserId]))[0];
    return variantPrice(db, body.account_id, body.plan_id, plan ?? null, body.country, promo, body.renewal ?? false);
  }
  if (promo) throw invalid('Promo codes apply to variant purchases only; pass plan_id instead of amount and currency', promo.param);
  if (body.amount === undefined) throw invalid('Pass plan_id, or amount with currency', 'amount');
  if (!body.currency) throw invalid('An amount needs its currency', 'currency');
  const usdRateE8 = await chargedRate(db, body.currency, 'currency');
  if (body.country) throw invalid('country prices tax on variant purchases; an explicit amount is charged as it is', 'country');
  return {
    planId: null, productId: null, currency: body.currency, usdRateE8, subtotal: body.amount, discount: 0, tax: 0, promoCodeId: null, stock: null,
    billingReason: 'manual', threeDSecurePolicy: null,
  };
}

/** The rate of a currency the sandbox processor charges: those of the rate table, which usd_total converts with. */
async function chargedRate(db: Knex, currency: string, param: string): Promise<bigint> {
  const rate = await usdRateOf(db, currency);
  if (rate === undefined) throw invalid(`The sandbox processor does not charge ${currency}`, param);
  return rate;
}

async function variantPrice(db: Knex, accountId: string, planId: string, plan: VariantPriceRow, country: string | undefined,
  promo: PromoInput | null, renewal: boolean): Promise<Price> {
  if (!plan) throw notFound('variant', planId, 'plan_id');
  const renewing = plan.plan_type === 'renewal' && plan.held;
  const subtotal = Number(renewing ? plan.renewal_price : plan.initial_price);
  if (subtotal <= 0) throw invalid('This variant is free; there is nothing to charge', 'plan_id');
  const stock = plan.stock === null || renewal ? null : Number(plan.stock);
  // Checked again, atomically, when the unit is taken (holds.ts); this answers the common case before any write.
  if (stock !== null && stock <= 0) throw invalid('This variant is sold out (its stock is 0)', 'plan_id');
  const usdRateE8 = await chargedRate(db, plan.currency, 'plan_id');
  const discount = promo ? await promoDiscount(db, accountId, plan, subtotal, promo) : null;
  const taxed = subtotal - (discount?.amount ?? 0);
  const tax = country ? (await calculateTax(db, { amount: taxed, currency: plan.currency, country })).tax_amount.amount : 0;
  return {
    planId: plan.id,
    productId: plan.product_id,
    currency: plan.currency,
    usdRateE8,
    subtotal,
    discount: discount?.amount ?? 0,
    tax,
    promoCodeId: discount?.promoCodeId ?? null,
    stock,
    billingReason: plan.plan_type === 'one_time' ? 'one_time' : renewing ? 'subscription_cycle' : 'subscription_create',
    threeDSecurePolicy: plan.three_d_secure_policy,
    accountPolicy: plan.account_policy,
  };
}

/** Rounds amount x basis points / 10000 half up, in integer arithmetic (no floats on money). */
const percentOf = (amount: number, basisPoints: number) => Number((BigInt(amount) * BigInt(basisPoints) + 5000n) / 10000n);

/**
 * The promo code the buyer named, checked against this purchase, and what it takes off `subtotal`. The redemption
 * limit is checked here for a clear answer and enforced atomically when the redemption is taken (holds.ts).
 */
async function promoDiscount(db: Knex, accountId: string, plan: NonNullable<VariantPriceRow>, subtotal: number, promo: PromoInput)
  : Promise<{ promoCodeId: string; amount: number }> {
  const [code] = promo.param === 'promo_code'
    ? await query<PromoRow>(db, PROMO_BY_CODE, [promo.value.toUpperCase(), accountId])
    : await query<PromoRow>(db, PROMO_BY_ID, [promo.value, accountId]);
  if (!code) throw notFound('promo code on this account', promo.value, promo.param);
  if (code.status !== 'active') throw invalid(`This promo code is ${code.status}; only active codes can be redeemed`, promo.param);
  if (code.expired) throw invalid('This promo code has expired', promo.param);
  if (code.max_redemptions !== null && Number(code.redemptions) >= Number(code.max_redemptions)) {
    throw invalid(`This promo code has reached its limit of ${code.max_redemptions} redemptions`, promo.param);
  }
  if (code.product_id && code.product_id !== plan.product_id) {
    throw invalid(`This promo code is only valid for product ${code.product_id}`, promo.param);
  }
  if (code.plan_id && code.plan_id !== plan.id) throw invalid(`This promo code is only valid for variant ${code.plan_id}`, promo.param);
  let amount: number;
  if (code.amount_off !== null) {
    if (code.currency !== plan.currency) {
      throw invalid(`This promo code takes ${code.currency} off; the variant is priced in ${plan.currency}`, promo.param);
    }
    amount = Number(code.amount_off);
  } else {
    // percent_off is numeric(5, 2), read as its decimal text: as basis points it is an integer, read exactly. A code
    // takes an amount or a percentage off (createPromoCode), so one without amount_off has a percentage.
    amount = percentOf(subtotal, basisPointsOf(code.percent_off!)!);
  }
  if (amount >= subtotal) {
    throw invalid(`This promo code takes ${amount} off a price of ${subtotal}, leaving nothing to charge`, promo.param);
  }
  return { promoCodeId: code.id, amount };
}
