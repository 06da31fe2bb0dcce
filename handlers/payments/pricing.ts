// What a payment charges: a variant's price (plus tax by the buyer's country), or an explicit untaxed amount.
import type { Knex } from 'knex';
import { invalid, notFound } from '../../runtime/errors.js';
import { query } from '../../runtime/request-db.js';
import { calculateTax } from '../shared/tax.js';
import { supportsCurrency, type ThreeDSecurePolicy } from '../processor/processor.js';

export interface Price {
  planId: string | null;
  productId: string | null;
  currency: string;
  subtotal: number;
  tax: number;
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
}

// Fixed SQL on plain pg: every variant purchase runs it (runtime/request-db.ts query).
const VARIANT_PRICE = `select v.id, v.product_id, v.currency, v.plan_type, v.initial_price, v.renewal_price, v.three_d_secure_policy,
    a.three_d_secure_policy as account_policy,
    exists (select 1 from memberships m where m.account_id = v.account_id and m.user_id = $3 and m.plan_id = v.id
      and m.status in ('trialing', 'active', 'past_due')) as held
  from plans v join products p on p.id = v.product_id join accounts a on a.id = v.account_id
  where v.id = $1 and v.account_id = $2 and v.deleted_at is null and p.deleted_at is null`;

export async function priceOf(db: Knex, body: PriceInput, buyerUserId: string): Promise<Price> {
  if (body.plan_id) {
    if (body.amount !== undefined) throw invalid('Pass either plan_id or amount with currency, not both', 'amount');
    if (body.currency !== undefined) throw invalid("A variant purchase is charged in the variant's currency; do not pass currency", 'currency');
    return variantPrice(db, body.account_id, body.plan_id, buyerUserId, body.country);
  }
  if (body.amount === undefined) throw invalid('Pass plan_id, or amount with currency', 'amount');
  if (!body.currency) throw invalid('An amount needs its currency', 'currency');
  if (!supportsCurrency(body.currency)) throw invalid(`The sandbox processor does not charge ${body.currency}`, 'currency');
  if (body.country) throw invalid('country prices tax on variant purchases; an explicit amount is charged as it is', 'country');
  return { planId: null, productId: null, currency: body.currency, subtotal: body.amount, tax: 0, billingReason: 'manual', threeDSecurePolicy: null };
}

async function variantPrice(db: Knex, accountId: string, planId: string, buyerUserId: string, country?: string): Promise<Price> {
  // One round trip: the variant, its account's 3-D Secure policy, and whether the buyer already holds it (a renewal).
  const [plan] = await query(db, VARIANT_PRICE, [planId, accountId, buyerUserId]);
  if (!plan) throw notFound('variant', planId, 'plan_id');
  const renewing = plan.plan_type === 'renewal' && plan.held;
  const subtotal = Number(renewing ? plan.renewal_price : plan.initial_price);
  if (subtotal <= 0) throw invalid('This variant is free; there is nothing to charge', 'plan_id');
  const tax = country ? (await calculateTax(db, { amount: subtotal, currency: plan.currency, country })).tax_amount.amount : 0;
  return {
    planId: plan.id,
    productId: plan.product_id,
    currency: plan.currency,
    subtotal,
    tax,
    billingReason: plan.plan_type === 'one_time' ? 'one_time' : renewing ? 'subscription_cycle' : 'subscription_create',
    threeDSecurePolicy: plan.three_d_secure_policy,
    accountPolicy: plan.account_policy,
  };
}
