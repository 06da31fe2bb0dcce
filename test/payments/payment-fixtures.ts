// Sellers, variants, buyers, cards and saved methods for the payments tests. Catalogue rows are inserted directly
// (the catalogue's own endpoints are tested in their area); cards go through POST /confirmation_tokens.
import * as assert from 'uvu/assert';
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import type { TestApp } from '../helpers/harness.js';
import { HEAD_VERSION } from '../../runtime/versions.js';
import { collectPayment } from '../../handlers/payments/collection.js';
import { settleRefund } from '../../handlers/refunds/settle-refund.js';

export const VERSION = HEAD_VERSION;

export const CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  threeDSecure: '4000002500003155',
  challenge: '4000000000003220',
  refundFails: '4000000000005126',
};

export async function makeSeller(db: Knex) {
  const o = await makeOwner(db);
  const { client_id } = await db('accounts').where({ id: o.accountId }).first('client_id');
  return { ...o, clientId: client_id as string };
}

export interface VariantOptions {
  price?: number;
  renewalPrice?: number;
  currency?: string;
  planType?: 'renewal' | 'one_time';
  billingPeriodDays?: number | null;
  trialDays?: number | null;
  threeDSecurePolicy?: string | null;
  includesLicense?: boolean;
  /** purchases left; null (the default) is unlimited */
  stock?: number | null;
}

export async function makeVariant(db: Knex, accountId: string, o: VariantOptions = {}) {
  const productId = newId('prod_');
  await db('products').insert({ id: productId, account_id: accountId, title: 'Course', includes_license: o.includesLicense ?? false });
  const planType = o.planType ?? 'renewal';
  const id = newId('plan_');
  await db('plans').insert({
    id, account_id: accountId, product_id: productId, plan_type: planType,
    billing_period_days: planType === 'renewal' ? (o.billingPeriodDays ?? 30) : null,
    trial_period_days: o.trialDays ?? null, currency: o.currency ?? 'usd',
    initial_price: o.price ?? 500, renewal_price: o.renewalPrice ?? o.price ?? 500,
    three_d_secure_policy: o.threeDSecurePolicy ?? null, stock: o.stock ?? null,
  });
  return { id, productId };
}

export async function makeToken(app: TestApp, clientId: string, number = CARDS.succeeds): Promise<string> {
  const res = await app.request('POST', '/confirmation_tokens', {
    token: clientId, version: VERSION, body: { card: { number, exp_month: 12, exp_year: 2030, cvc: '123' } },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

export interface PromoOptions {
  code?: string;
  amountOff?: number;
  currency?: string;
  percentOff?: number;
  productId?: string | null;
  planId?: string | null;
  maxRedemptions?: number | null;
  redemptions?: number;
  status?: 'active' | 'inactive' | 'archived';
  expiresAt?: Date | null;
}

/** A promo code of the seller, stored as the promo codes area stores it (code upper-cased). 10% off by default. */
export async function makePromo(db: Knex, accountId: string, o: PromoOptions = {}) {
  const id = newId('promo_');
  const code = (o.code ?? `SAVE${id.slice(-8)}`).toUpperCase();
  await db('promo_codes').insert({
    id, account_id: accountId, code, status: o.status ?? 'active',
    amount_off: o.amountOff ?? null, currency: o.amountOff !== undefined ? (o.currency ?? 'usd') : null,
    percent_off: o.amountOff !== undefined ? null : (o.percentOff ?? 10),
    product_id: o.productId ?? null, plan_id: o.planId ?? null,
    max_redemptions: o.maxRedemptions ?? null, redemptions: o.redemptions ?? 0, expires_at: o.expiresAt ?? null,
  });
  return { id, code };
}

/** A member of the seller with a saved card (as a setup intent leaves it). */
export async function makeSavedMethod(db: Knex, accountId: string, behaviour = 'succeeds') {
  const buyer = await makeUser(db);
  const memberId = newId('mber_');
  await db('members').insert({ id: memberId, account_id: accountId, user_id: buyer.id });
  const methodId = newId('payt_');
  await db('payment_methods').insert({
    id: methodId, account_id: accountId, user_id: buyer.id, member_id: memberId, type: 'card', card_brand: 'visa',
    last4: '4242', exp_month: 12, exp_year: 2030, fingerprint: 'f'.repeat(64), test_behaviour: behaviour,
  });
  return { buyer, memberId, methodId };
}

/** A token payment for a fresh buyer, collected when `collect` (the default). */
export async function pay(app: TestApp, seller: { key: string; accountId: string; clientId: string },
  body: Record<string, unknown>, options: { card?: string; collect?: boolean; buyerId?: string } = {}) {
  const buyerId = options.buyerId ?? (await makeUser(app.db)).id;
  const ctok = await makeToken(app, seller.clientId, options.card);
  const res = await app.request('POST', '/payments', {
    token: seller.key, version: VERSION, body: { account_id: seller.accountId, confirmation_token: ctok, user_id: buyerId, ...body },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  if (options.collect !== false) await collectPayment(app.db, res.body.id);
  return { id: res.body.id as string, created: res.body, buyerId };
}

export const collect = (app: TestApp, id: string) => collectPayment(app.db, id);
export const settleRefunds = async (app: TestApp, paymentId: string) => {
  for (const r of await app.db('refunds').where({ payment_id: paymentId, status: 'pending' })) await settleRefund(app.db, r.id);
};

export async function get(app: TestApp, key: string, id: string) {
  const res = await app.request('GET', `/payments/${id}`, { token: key, version: VERSION });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

export const usd = (amount: number) => ({ amount, currency: 'usd', decimals: 2, display_decimals: 2 });

export async function viewerKey(db: Knex, accountId: string) {
  return (await makeKey(db, { accountId, role: 'viewer' })).secret;
}

/** Pending graphile-worker jobs of a task keyed by an id (the public jobs view has no payload). */
export function jobsOf(app: TestApp, task: string, id: string) {
  return app.db('graphile_worker._private_jobs as j').join('graphile_worker._private_tasks as t', 't.id', 'j.task_id')
    .where({ 't.identifier': task, 'j.key': `${task}:${id}` }).select('j.id', 'j.payload');
}
