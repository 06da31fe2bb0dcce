// Memberships in every state, reached through the product on a sandbox clock (never written with SQL): a seller on a
// clock, variants and purchases through the API, and advances that let time do the rest (trials convert, renewals
// fail on a card that needs the buyer, retries run out, fixed terms complete, one-time grants expire).
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { makeUser } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { CARDS, makeSeller, makeToken } from '../payments/payment-fixtures.js';

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const iso = (ms: number) => new Date(ms).toISOString();

export type Seller = { key: string; accountId: string; clientId: string };
export type Shop = Seller & { clockId: string; t0: number };

export function lifecycleApi(app: TestApp) {
  const call = (key: string, method: string, path: string, body?: unknown, query?: Record<string, string>) =>
    app.request(method, path, { token: key, version: headVersion(), body, query });
  async function ok(key: string, method: string, path: string, body?: unknown, query?: Record<string, string>) {
    const res = await call(key, method, path, body, query);
    assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Puts the seller's account on a clock standing at the next midnight (UTC) but one (a new seller by default). */
  async function shop(seller?: Seller): Promise<Shop> {
    const s = seller ?? await makeSeller(app.db);
    const t0 = Math.ceil(Date.now() / DAY) * DAY + DAY;
    const clock = await ok(s.key, 'POST', '/sandbox/clocks', { account_id: s.accountId, frozen_time: iso(t0) });
    return { key: s.key, accountId: s.accountId, clientId: s.clientId, clockId: clock.id, t0 };
  }

  async function advanceTo(s: Shop, at: number) {
    await ok(s.key, 'POST', `/sandbox/clocks/${s.clockId}/advance`, { frozen_time: iso(at) });
    await until(async () => (await ok(s.key, 'GET', `/sandbox/clocks/${s.clockId}`)).status === 'ready', 'the clock to be ready',
      { timeoutMs: 60_000, everyMs: 100 });
  }

  async function variant(s: Seller, terms: Record<string, unknown>, includesLicense = false) {
    const product = await ok(s.key, 'POST', '/products', { account_id: s.accountId, title: 'Course', includes_license: includesLicense });
    return ok(s.key, 'POST', '/variants', { account_id: s.accountId, product_id: product.id, ...terms });
  }

  const payment = (s: Seller, id: string) => ok(s.key, 'GET', `/payments/${id}`);
  const membership = (s: Seller, id: string) => ok(s.key, 'GET', `/memberships/${id}`);

  const settled = (s: Seller, id: string) => until(async () => {
    const p = await payment(s, id);
    return ['succeeded', 'failed'].includes(p.status) ? p : null;
  }, `payment ${id} to be collected`, { timeoutMs: 20_000, everyMs: 50 });

  /** A buyer purchases the variant with `card`, saving it (a 3-D Secure step is completed on the buyer's behalf). */
  async function buy(s: Seller, planId: string, card: string = CARDS.succeeds, extra: Record<string, unknown> = {}) {
    const buyer = extra.user_id ? null : await makeUser(app.db);
    const token = await makeToken(app, s.clientId, card);
    let p = await ok(s.key, 'POST', '/payments', {
      account_id: s.accountId, confirmation_token: token, user_id: buyer?.id, plan_id: planId, save_payment_method: true, ...extra,
    });
    if (p.status === 'requires_action') p = await ok(s.key, 'POST', `/payments/${p.id}/confirm_action`, { outcome: 'succeed' });
    p = await settled(s, p.id);
    assert.is(p.status, 'succeeded', JSON.stringify(p));
    return { buyer, userId: p.user.id as string, payment: p, membershipId: p.membership_id as string, memberId: p.member_id as string };
  }

  async function renewals(s: Seller, membershipId: string) {
    const page = await ok(s.key, 'GET', '/payments', undefined,
      { account_id: s.accountId, membership_id: membershipId, billing_reason: 'subscription_cycle', first: '100' });
    return (page.data as any[]).sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  }

  /** Saves another card for the buyer's member (a setup intent, as a buyer updating their card does). */
  async function saveCard(s: Seller, memberId: string, card: string) {
    const token = await makeToken(app, s.clientId, card);
    const intent = await ok(s.key, 'POST', '/setup_intents', { account_id: s.accountId, confirmation_token: token, member_id: memberId });
    const done = await until(async () => {
      const i = await ok(s.key, 'GET', `/setup_intents/${intent.id}`);
      return i.status !== 'processing' ? i : null;
    }, 'the setup intent', { timeoutMs: 20_000, everyMs: 50 });
    if (done.status === 'requires_action') await ok(s.key, 'POST', `/setup_intents/${intent.id}/confirm_action`, { outcome: 'succeed' });
  }

  /**
   * A membership of a new buyer in `status`, reached by time on the shop's clock (which it advances: use a shop of its
   * own, or one whose other memberships may move too). past_due: a renewal on a card that needs the buyer failed;
   * expired: its retries ran out; completed: a one-payment fixed term ended; trialing/active: just bought.
   */
  async function membershipIn(s: Shop, status: 'trialing' | 'active' | 'past_due' | 'expired' | 'completed',
    options: { userId?: string; includesLicense?: boolean } = {}) {
    const extra = options.userId ? { user_id: options.userId } : {};
    const renewal = { plan_type: 'renewal', billing_period: 30, initial_price: 1500, renewal_price: 1500 };
    const terms = status === 'trialing' ? { ...renewal, trial_period_days: 7 }
      : status === 'completed' ? { ...renewal, split_pay_required_payments: 1 } : renewal;
    const v = await variant(s, terms, options.includesLicense);
    const bought = await buy(s, v.id, status === 'past_due' || status === 'expired' ? CARDS.challenge : CARDS.succeeds, extra);
    const frozen = Date.parse((await ok(s.key, 'GET', `/sandbox/clocks/${s.clockId}`)).frozen_time);
    if (status === 'past_due' || status === 'completed') await advanceTo(s, frozen + 30 * DAY + HOUR);
    if (status === 'expired') await advanceTo(s, frozen + 37 * DAY + HOUR);
    const m = await membership(s, bought.membershipId);
    assert.is(m.status, status);
    return { ...bought, id: m.id as string, planId: v.id as string, productId: v.product_id as string, licenseKey: m.license_key as string | null };
  }

  return { call, ok, shop, advanceTo, variant, payment, membership, settled, buy, renewals, saveCard, membershipIn };
}
