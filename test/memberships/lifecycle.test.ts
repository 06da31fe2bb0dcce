// Memberships over time, on a sandbox clock, through the API: trials convert, renewals are charged on the buyer's
// saved card, failed renewals are retried on the documented schedule (3, 5 and 7 days) and lapse, a card saved since
// recovers them, scheduled cancellations, extensions, pauses, fixed terms and one-time grants end as documented.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { makeUser } from '../helpers/fixtures.js';
import { HEAD_VERSION } from '../../runtime/versions.js';
import { CARDS, makeSeller, makeToken } from '../payments/payment-fixtures.js';

const t = suite('membership lifecycle on a sandbox clock');
let app: TestApp;
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

const DAY = 86_400_000;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

type Shop = Awaited<ReturnType<typeof makeSeller>> & { clockId: string; t0: number };

async function call(key: string, method: string, path: string, body?: unknown, query?: Record<string, string>) {
  return app.request(method, path, { token: key, version: HEAD_VERSION, body, query });
}
async function ok(key: string, method: string, path: string, body?: unknown, query?: Record<string, string>) {
  const res = await call(key, method, path, body, query);
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A seller on a clock standing at the next midnight (UTC) but one. */
async function shop(): Promise<Shop> {
  const s = await makeSeller(app.db);
  const t0 = Math.ceil(Date.now() / DAY) * DAY + DAY;
  const clock = await ok(s.key, 'POST', '/sandbox/clocks', { account_id: s.accountId, frozen_time: iso(t0) });
  return { ...s, clockId: clock.id, t0 };
}

async function advanceTo(s: Shop, at: number) {
  await ok(s.key, 'POST', `/sandbox/clocks/${s.clockId}/advance`, { frozen_time: iso(at) });
  await until(async () => (await ok(s.key, 'GET', `/sandbox/clocks/${s.clockId}`)).status === 'ready', 'the clock to be ready',
    { timeoutMs: 120_000, everyMs: 100 });
}

async function variant(s: Shop, terms: Record<string, unknown>) {
  const product = await ok(s.key, 'POST', '/products', { account_id: s.accountId, title: 'Course' });
  return ok(s.key, 'POST', '/variants', { account_id: s.accountId, product_id: product.id, ...terms });
}

const payment = (s: Shop, id: string) => ok(s.key, 'GET', `/payments/${id}`);
const membership = (s: Shop, id: string) => ok(s.key, 'GET', `/memberships/${id}`);

async function settled(s: Shop, id: string) {
  return until(async () => {
    const p = await payment(s, id);
    return ['succeeded', 'failed'].includes(p.status) ? p : null;
  }, `payment ${id} to be collected`, { timeoutMs: 20_000, everyMs: 50 });
}

/** A buyer purchases the variant with `card`, saving it (a 3-D Secure step is completed on the buyer's behalf). */
async function buy(s: Shop, planId: string, card: string = CARDS.succeeds, extra: Record<string, unknown> = {}) {
  const buyer = await makeUser(app.db);
  const token = await makeToken(app, s.clientId, card);
  let p = await ok(s.key, 'POST', '/payments', {
    account_id: s.accountId, confirmation_token: token, user_id: buyer.id, plan_id: planId, save_payment_method: true, ...extra,
  });
  if (p.status === 'requires_action') p = await ok(s.key, 'POST', `/payments/${p.id}/confirm_action`, { outcome: 'succeed' });
  p = await settled(s, p.id);
  assert.is(p.status, 'succeeded', JSON.stringify(p));
  return { buyer, payment: p, membershipId: p.membership_id as string };
}

async function renewals(s: Shop, membershipId: string) {
  const page = await ok(s.key, 'GET', '/payments', undefined,
    { account_id: s.accountId, membership_id: membershipId, billing_reason: 'subscription_cycle', first: '100' } as Record<string, string>);
  return (page.data as any[]).sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
}

const eventsOf = async (type: string, membershipId: string) =>
  app.db('events').where({ type }).whereRaw("data->>'id' = ?", [membershipId]).orderBy('id');

/** Saves another card for the buyer's member (a setup intent, as a buyer updating their card does). */
async function saveCard(s: Shop, memberId: string, card: string) {
  const token = await makeToken(app, s.clientId, card);
  const intent = await ok(s.key, 'POST', '/setup_intents', { account_id: s.accountId, confirmation_token: token, member_id: memberId });
  const done = await until(async () => {
    const i = await ok(s.key, 'GET', `/setup_intents/${intent.id}`);
    return i.status !== 'processing' ? i : null;
  }, 'the setup intent', { timeoutMs: 20_000, everyMs: 50 });
  if (done.status === 'requires_action') await ok(s.key, 'POST', `/setup_intents/${intent.id}/confirm_action`, { outcome: 'succeed' });
}

t('a trial converts at its end and the plan renews every period for a year, each period from the end of the last', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, trial_period_days: 7, initial_price: 100, renewal_price: 2000 });
  const { membershipId } = await buy(s, v.id, CARDS.succeeds, { country: 'DE' });
  let m = await membership(s, membershipId);
  assert.is(m.status, 'trialing');
  assert.is(Date.parse(m.current_period_end), s.t0 + 7 * DAY);

  await advanceTo(s, s.t0 + 7 * DAY + HOUR);
  m = await membership(s, membershipId);
  assert.is(m.status, 'active');
  assert.is(Date.parse(m.current_period_start), s.t0 + 7 * DAY);
  assert.is(Date.parse(m.current_period_end), s.t0 + 37 * DAY);
  const [first] = await renewals(s, membershipId);
  assert.is(first.status, 'succeeded');
  assert.is(first.subtotal.amount, 2000);
  assert.is(first.tax_amount.amount, 380, 'taxed by the purchase country (DE, 19%)');
  assert.is(first.membership_id, membershipId);
  assert.is((await eventsOf('membership.activated', membershipId)).length, 2, 'created, then the trial converted');

  await advanceTo(s, s.t0 + 365 * DAY);
  const paid = await renewals(s, membershipId);
  assert.is(paid.length, 12, 'the trial conversion and eleven renewals');
  assert.ok(paid.every((p) => p.status === 'succeeded'));
  m = await membership(s, membershipId);
  assert.is(m.status, 'active');
  assert.is(Date.parse(m.current_period_start), s.t0 + (7 + 11 * 30) * DAY);
  assert.is(Date.parse(m.current_period_end), s.t0 + (7 + 12 * 30) * DAY);
  assert.is((await eventsOf('membership.renewed', membershipId)).length, 12);
});

t('a card that needs the buyer fails off-session: past_due, retried 3, 5 and 7 days after, then expired', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 1500, renewal_price: 1500 });
  const { membershipId } = await buy(s, v.id, CARDS.challenge);
  const due = s.t0 + 30 * DAY;
  await advanceTo(s, due + HOUR);
  let m = await membership(s, membershipId);
  assert.is(m.status, 'past_due');
  let [renewal] = await renewals(s, membershipId);
  assert.is(renewal.status, 'failed');
  assert.is(renewal.failure_code, 'authentication_required');
  assert.is(Date.parse(renewal.next_payment_attempt_at), due + 3 * DAY);
  assert.is((await eventsOf('membership.past_due', membershipId)).length, 1);

  // A manual retry on the same card fails too, and the schedule stays anchored on the due date.
  await ok(s.key, 'POST', `/payments/${renewal.id}/retry`);
  renewal = await settled(s, renewal.id);
  assert.is(renewal.status, 'failed');
  assert.is(Date.parse(renewal.next_payment_attempt_at), due + 3 * DAY);

  for (const [at, next] of [[3, 5], [5, 7]]) {
    await advanceTo(s, due + at * DAY + HOUR);
    [renewal] = await renewals(s, membershipId);
    assert.is(renewal.status, 'failed');
    assert.is(Date.parse(renewal.last_payment_attempt_at), due + at * DAY);
    assert.is(Date.parse(renewal.next_payment_attempt_at), due + next * DAY);
    assert.is((await membership(s, membershipId)).status, 'past_due');
  }
  await advanceTo(s, due + 7 * DAY + HOUR);
  m = await membership(s, membershipId);
  assert.is(m.status, 'expired');
  assert.is((await renewals(s, membershipId)).length, 1, 'one payment for the period, retried');
  assert.is((await eventsOf('membership.expired', membershipId)).length, 1);
  const member = await ok(s.key, 'GET', `/members/${m.member_id}`);
  assert.is(member.status, 'left');
  // Nothing more happens to an expired membership.
  await advanceTo(s, due + 60 * DAY);
  assert.is((await renewals(s, membershipId)).length, 1);
});

t('a card saved during dunning recovers the renewal at the next retry: active for the period it pays', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 1500, renewal_price: 1500 });
  const { membershipId } = await buy(s, v.id, CARDS.challenge);
  const due = s.t0 + 30 * DAY;
  await advanceTo(s, due + HOUR);
  const m = await membership(s, membershipId);
  assert.is(m.status, 'past_due');
  await saveCard(s, m.member_id, CARDS.succeeds);
  await advanceTo(s, due + 3 * DAY + HOUR);
  const [renewal] = await renewals(s, membershipId);
  assert.is(renewal.status, 'succeeded');
  assert.is(renewal.payment_instrument.last4, '4242');
  const recovered = await membership(s, membershipId);
  assert.is(recovered.status, 'active');
  assert.is(Date.parse(recovered.current_period_start), due);
  assert.is(Date.parse(recovered.current_period_end), due + 30 * DAY);
  assert.is((await eventsOf('membership.renewed', membershipId)).length, 1);
});

t('POST /payments/{id}/retry on a failed renewal, after the buyer saved a card, returns the membership to active', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 1500, renewal_price: 1500 });
  const { membershipId } = await buy(s, v.id, CARDS.challenge);
  await advanceTo(s, s.t0 + 30 * DAY + HOUR);
  const m = await membership(s, membershipId);
  await saveCard(s, m.member_id, CARDS.succeeds);
  const [failed] = await renewals(s, membershipId);
  await ok(s.key, 'POST', `/payments/${failed.id}/retry`);
  assert.is((await settled(s, failed.id)).status, 'succeeded');
  const back = await membership(s, membershipId);
  assert.is(back.status, 'active');
  assert.is(Date.parse(back.current_period_end), s.t0 + 60 * DAY);
});

t('cancel at period end: canceled at the end, with no charge', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 500 });
  const { membershipId } = await buy(s, v.id);
  await ok(s.key, 'POST', `/memberships/${membershipId}/cancel`, { cancel_at_period_end: true });
  await advanceTo(s, s.t0 + 30 * DAY - HOUR);
  assert.is((await membership(s, membershipId)).status, 'active');
  await advanceTo(s, s.t0 + 30 * DAY + HOUR);
  const m = await membership(s, membershipId);
  assert.is(m.status, 'canceled');
  assert.is(Date.parse(m.canceled_at), s.t0 + 30 * DAY);
  assert.is((await renewals(s, membershipId)).length, 0);
});

t('extend moves the next charge; the next period starts at the extended end', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 500 });
  const { membershipId } = await buy(s, v.id);
  await ok(s.key, 'POST', `/memberships/${membershipId}/extend`, { days: 10 });
  await advanceTo(s, s.t0 + 30 * DAY + HOUR);
  assert.is((await renewals(s, membershipId)).length, 0);
  await advanceTo(s, s.t0 + 40 * DAY + HOUR);
  assert.is((await renewals(s, membershipId)).length, 1);
  const m = await membership(s, membershipId);
  assert.is(Date.parse(m.current_period_start), s.t0 + 40 * DAY);
  assert.is(Date.parse(m.current_period_end), s.t0 + 70 * DAY);
});

t('pause stops billing; resume starts a new period at once, charged then', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 500 });
  const { membershipId } = await buy(s, v.id);
  await ok(s.key, 'POST', `/memberships/${membershipId}/pause`);
  await advanceTo(s, s.t0 + 45 * DAY);
  assert.is((await membership(s, membershipId)).status, 'paused');
  assert.is((await renewals(s, membershipId)).length, 0);
  await ok(s.key, 'POST', `/memberships/${membershipId}/resume`);
  await advanceTo(s, s.t0 + 45 * DAY + HOUR);
  const [charged] = await renewals(s, membershipId);
  assert.is(charged.status, 'succeeded');
  const m = await membership(s, membershipId);
  assert.is(m.status, 'active');
  assert.is(Date.parse(m.current_period_start), s.t0 + 45 * DAY);
  assert.is(Date.parse(m.current_period_end), s.t0 + 75 * DAY);
});

t('a fixed term completes at the end of the period its last required payment paid', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 500, split_pay_required_payments: 3 });
  assert.is(v.split_pay_required_payments, 3);
  const { membershipId } = await buy(s, v.id);
  await advanceTo(s, s.t0 + 89 * DAY);
  assert.is((await renewals(s, membershipId)).length, 2);
  assert.is((await membership(s, membershipId)).status, 'active');
  await advanceTo(s, s.t0 + 91 * DAY);
  const m = await membership(s, membershipId);
  assert.is(m.status, 'completed');
  assert.is((await renewals(s, membershipId)).length, 2, 'no fourth payment');
  assert.is((await eventsOf('membership.completed', membershipId)).length, 1);
});

t('a one_time grant with expiration_days expires then; without it, it never does', async () => {
  const s = await shop();
  const expiring = await variant(s, { plan_type: 'one_time', initial_price: 500, expiration_days: 10 });
  assert.is(expiring.expiration_days, 10);
  const forever = await variant(s, { plan_type: 'one_time', initial_price: 500 });
  const a = await buy(s, expiring.id);
  const b = await buy(s, forever.id);
  assert.is(Date.parse((await membership(s, a.membershipId)).current_period_end), s.t0 + 10 * DAY);
  assert.is((await membership(s, b.membershipId)).current_period_end, null);
  await advanceTo(s, s.t0 + 10 * DAY + HOUR);
  assert.is((await membership(s, a.membershipId)).status, 'expired');
  assert.is((await membership(s, b.membershipId)).status, 'active');
  assert.is((await eventsOf('membership.expired', a.membershipId)).length, 1);
});

t.run();
