// Sellers, variants, buyers, cards, promo codes and saved methods for the payments tests, all made through the API
// as the seller (an admin key of the account) or the frontend (its client id), as a shop would make them.
import * as assert from 'uvu/assert';
import type { Knex } from 'knex';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import type { TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { randomToken } from '../../runtime/ids.js';
import { collectPayment } from '../../handlers/payments/collection.js';
import { settleRefund } from '../../handlers/refunds/settle-refund.js';
import { saveSetupIntent } from '../../handlers/setup_intents/save-setup-intent.js';

export const VERSION = headVersion();

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

const sellerKeys = new Map<string, Promise<string>>();

/** An admin key of the account (one per account), for fixtures that act as its seller. */
export function sellerKey(app: TestApp, accountId: string): Promise<string> {
  let key = sellerKeys.get(accountId);
  if (!key) {
    key = makeKey(app.db, { accountId, role: 'admin' }).then((k) => k.secret);
    sellerKeys.set(accountId, key);
  }
  return key;
}

/** A request as the account's seller that must succeed; its body. */
export async function asSeller(app: TestApp, accountId: string, method: string, path: string, body?: unknown) {
  const res = await app.request(method, path, { token: await sellerKey(app, accountId), version: VERSION, body });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A product (POST /products) with one variant (POST /variants) of the account. */
export async function makeVariant(app: TestApp, accountId: string, o: VariantOptions = {}) {
  const product = await asSeller(app, accountId, 'POST', '/products', {
    account_id: accountId, title: 'Course', includes_license: o.includesLicense ?? false,
  });
  const planType = o.planType ?? 'renewal';
  const body: Record<string, unknown> = {
    account_id: accountId, product_id: product.id, plan_type: planType, currency: o.currency ?? 'usd', initial_price: o.price ?? 500,
  };
  if (planType === 'renewal') {
    Object.assign(body, { billing_period: o.billingPeriodDays ?? 30, renewal_price: o.renewalPrice ?? o.price ?? 500 });
    if (o.trialDays != null) body.trial_period_days = o.trialDays;
  }
  if (o.threeDSecurePolicy != null) body.three_d_secure_policy = o.threeDSecurePolicy;
  if (o.stock != null) body.stock = o.stock;
  const variant = await asSeller(app, accountId, 'POST', '/variants', body);
  return { id: variant.id as string, productId: product.id as string };
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
  /** set by POST /promo_codes/{id}/deactivate or DELETE /promo_codes/{id} after creation */
  status?: 'active' | 'inactive' | 'archived';
  /** in the future (the API refuses a past expiry; a test waits for it to pass) */
  expiresAt?: Date | null;
}

/** A promo code of the seller (POST /promo_codes, which upper-cases the code). 10% off by default. */
export async function makePromo(app: TestApp, accountId: string, o: PromoOptions = {}) {
  const body: Record<string, unknown> = { account_id: accountId, code: o.code ?? `SAVE${randomToken(8)}` };
  if (o.amountOff !== undefined) Object.assign(body, { amount_off: o.amountOff, currency: o.currency ?? 'usd' });
  else body.percent_off = o.percentOff ?? 10;
  if (o.productId) body.product_id = o.productId;
  if (o.planId) body.plan_id = o.planId;
  if (o.maxRedemptions != null) body.max_redemptions = o.maxRedemptions;
  if (o.expiresAt) body.expires_at = o.expiresAt.toISOString();
  const promo = await asSeller(app, accountId, 'POST', '/promo_codes', body);
  if (o.status === 'inactive') await asSeller(app, accountId, 'POST', `/promo_codes/${promo.id}/deactivate`);
  if (o.status === 'archived') await asSeller(app, accountId, 'DELETE', `/promo_codes/${promo.id}`);
  return { id: promo.id as string, code: promo.code as string };
}

/** The sandbox card number with a behaviour (sandbox/processor/cards.ts). */
export const CARD_FOR: Record<string, string> = {
  succeeds: CARDS.succeeds, declined: CARDS.declined, insufficient_funds: CARDS.insufficientFunds,
  requires_3ds: CARDS.threeDSecure, requires_3ds_challenge: CARDS.challenge, refund_fails: CARDS.refundFails,
};

export async function clientIdOf(app: TestApp, accountId: string): Promise<string> {
  return (await app.db('accounts').where({ id: accountId }).first('client_id')).client_id;
}

/**
 * A card saved for a buyer of the seller as a buyer saves one: a setup intent (POST /setup_intents) for `buyer`
 * (user_id: they join as a member; or member_id), saved by the processor step the worker runs, with any 3D Secure
 * step completed on the buyer's behalf. Returns the saved method and the member.
 */
export async function saveCardFor(app: TestApp, accountId: string, buyer: { userId?: string; memberId?: string },
  behaviour = 'succeeds') {
  const number = CARD_FOR[behaviour];
  assert.ok(number, `no sandbox card for ${behaviour}`);
  const token = await makeToken(app, await clientIdOf(app, accountId), number);
  const intent = await asSeller(app, accountId, 'POST', '/setup_intents', {
    account_id: accountId, confirmation_token: token,
    ...(buyer.memberId ? { member_id: buyer.memberId } : buyer.userId ? { user_id: buyer.userId } : {}),
  });
  await app.db.transaction((trx) => saveSetupIntent(trx, intent.id));
  let saved = await asSeller(app, accountId, 'GET', `/setup_intents/${intent.id}`);
  if (saved.status === 'requires_action') saved = await asSeller(app, accountId, 'POST', `/setup_intents/${intent.id}/confirm_action`, { outcome: 'succeed' });
  assert.is(saved.status, 'succeeded', JSON.stringify(saved));
  return { methodId: saved.payment_method_id as string, memberId: saved.member_id as string };
}

/** A new buyer of the seller with a saved card (a setup intent). */
export async function makeSavedMethod(app: TestApp, accountId: string, behaviour = 'succeeds') {
  const buyer = await makeUser(app.db);
  const { methodId, memberId } = await saveCardFor(app, accountId, { userId: buyer.id }, behaviour);
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
