import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import {
  CARDS, collect, get, jobsOf, makeSavedMethod, makeSeller, makeToken, makeVariant, pay, usd, VERSION, viewerKey,
} from './payment-fixtures.js';
import { postingsOf } from '../helpers/ledger.js';
import { lifecycleApi } from '../memberships/lifecycle-fixtures.js';

const t = suite('POST /payments');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const create = (key: string, body: Record<string, unknown>) => app.request('POST', '/payments', { token: key, version: VERSION, body });

/** The membership as the API shows it (its license key is stored sealed). */
const membershipOf = async (key: string, id: string) => {
  const res = await app.request('GET', `/memberships/${id}`, { token: key });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
};

t('a token payment answers 201 processing, queues collect_payment, and spends the token', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 500 });
  const buyer = await makeUser(app.db, 'Ada Buyer');
  const ctok = await makeToken(app, s.clientId);
  const res = await create(s.key, { account_id: s.accountId, confirmation_token: ctok, user_id: buyer.id, plan_id: v.id });
  assert.is(res.status, 201);
  const p = res.body;
  assert.match(p.id, /^pay_/);
  assert.is(p.status, 'processing');
  assert.is(p.account_id, s.accountId);
  assert.is(p.plan_id, v.id);
  assert.is(p.product_id, v.productId);
  assert.equal(p.user, { id: buyer.id, username: buyer.user.username, name: 'Ada Buyer', profile_picture: null });
  assert.equal(p.total, usd(500));
  assert.equal(p.subtotal, usd(500));
  assert.equal(p.tax_amount, usd(0));
  assert.equal(p.amount_after_fees, usd(0));
  assert.equal(p.usd_total, usd(500));
  assert.is(p.billing_reason, 'subscription_create');
  assert.equal(p.payment_instrument, { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
  assert.is(p.next_action, null);
  assert.is(p.membership_id, null);
  assert.not.ok('pdf_url' in p);
  const jobs = await jobsOf(app, 'collect_payment', p.id);
  assert.is(jobs.length, 1);
  assert.equal(jobs[0].payload, { payment_id: p.id });
  const reused = await create(s.key, { account_id: s.accountId, confirmation_token: ctok, user_id: buyer.id, plan_id: v.id });
  assert.is(reused.status, 400);
  assert.is(reused.body.error.param, 'confirmation_token');
  assert.match(reused.body.error.message, /already been used/);
});

t('GET /payments/{id}: the seller reads it; the buyer\'s own token is refused with why; strangers find nothing', async () => {
  const s = await makeSeller(app.db);
  const buyer = await makeUser(app.db, 'Bea Buyer');
  const ctok = await makeToken(app, s.clientId);
  const created = await create(s.key, { account_id: s.accountId, confirmation_token: ctok, user_id: buyer.id, amount: 700, currency: 'usd' });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;
  const read = (token: string) => app.request('GET', `/payments/${id}`, { token, version: VERSION });
  const bySeller = await read(s.key);
  assert.is(bySeller.status, 200);
  assert.equal(bySeller.body, created.body, 'the read answers what the create answered');
  const byBuyer = await read(buyer.token);
  assert.is(byBuyer.status, 403, 'the payment is the buyer\'s, so not hidden from them, but not served to them');
  assert.match(byBuyer.body.error.message, /not served to the buyer's own token/);
  const stranger = await makeUser(app.db);
  assert.is((await read(stranger.token)).status, 404);
  const otherSeller = await makeOwner(app.db);
  assert.is((await read(otherSeller.key)).status, 404);
  const unknown = await app.request('GET', '/payments/pay_nonexistent', { token: s.key, version: VERSION });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error.param, 'id');
});

t('collection succeeds: fees, ledger, member, membership and events in one go', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 500, billingPeriodDays: 30 });
  const { id, buyerId } = await pay(app, s, { plan_id: v.id });
  const p = await get(app, s.key, id);
  assert.is(p.status, 'succeeded');
  // 2.9% of 500 = 14.5 -> 15, + 30 = 45; platform 1% = 5.
  assert.equal(p.amount_after_fees, usd(450));
  assert.ok(p.settlement_time_at);
  assert.ok(p.last_payment_attempt_at);
  const member = await app.db('members').where({ account_id: s.accountId, user_id: buyerId }).first();
  assert.is(member.status, 'joined');
  assert.is(p.member_id, member.id);
  const membership = await membershipOf(s.key, p.membership_id);
  assert.is(membership.status, 'active');
  assert.is(membership.plan_id, v.id);
  assert.is(membership.license_key, null);
  const days = (Date.parse(membership.current_period_end) - Date.parse(membership.current_period_start)) / 86_400_000;
  assert.is(Math.round(days), 30);
  const postings = await postingsOf(app.db, s.accountId);
  assert.is(postings.length, 3);
  assert.is(new Set(postings.map((r) => r.entry_id)).size, 1);
  assert.is(postings.reduce((n, r) => n + Number(r.amount), 0), 0);
  assert.is(Number(postings.find((r) => r.bucket === 'pending')!.amount), 450);
  const account = await app.request('GET', `/accounts/${s.accountId}`, { token: s.key, version: VERSION });
  assert.equal(account.body.balance.pending, usd(450));
  const events = await app.db('events').where({ account_id: s.accountId }).orderBy('created_at');
  // Besides the catalogue's own (the variant was made through the API), collection's events.
  assert.equal(events.map((e) => e.type).sort(), ['membership.activated', 'payment.succeeded', 'plan.created', 'product.created']);
  const succeeded = events.find((e) => e.type === 'payment.succeeded')!;
  assert.is(succeeded.data.id, id);
  assert.is(succeeded.data.status, 'succeeded');
  // A second run of the task changes nothing.
  await collect(app, id);
  assert.is((await postingsOf(app.db, s.accountId)).length, 3);
});

t('a declined card fails with its code and a payment.failed event; insufficient funds likewise', async () => {
  const s = await makeSeller(app.db);
  const declined = await pay(app, s, { amount: 700, currency: 'usd' }, { card: CARDS.declined });
  const d = await get(app, s.key, declined.id);
  assert.is(d.status, 'failed');
  assert.is(d.failure_code, 'card_declined');
  assert.is(d.failure_message, 'The card was declined');
  assert.is(d.billing_reason, 'manual');
  const poor = await pay(app, s, { amount: 700, currency: 'usd' }, { card: CARDS.insufficientFunds });
  assert.is((await get(app, s.key, poor.id)).failure_code, 'insufficient_funds');
  const events = await app.db('events').where({ account_id: s.accountId, type: 'payment.failed' });
  assert.is(events.length, 2);
  assert.is((await app.db('members').where({ account_id: s.accountId })).length, 0, 'no member for a failed payment');
  assert.is((await postingsOf(app.db, s.accountId)).length, 0);
});

t('tax is added by the buyer country; usd_total converts other currencies', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 800 });
  const { created } = await pay(app, s, { plan_id: v.id, country: 'DE' }, { collect: false });
  assert.equal(created.tax_amount, usd(152));
  assert.equal(created.total, usd(952));
  const eur = await makeVariant(app, s.accountId, { price: 900, currency: 'eur' });
  const e = await pay(app, s, { plan_id: eur.id }, { collect: false });
  assert.equal(e.created.total, { amount: 900, currency: 'eur', decimals: 2, display_decimals: 2 });
  assert.equal(e.created.usd_total, usd(972));
});

t('a trial variant gives a trialing membership; a licensed product a license key; a renewal extends it', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 300, renewalPrice: 600, trialDays: 7, includesLicense: true });
  const first = await pay(app, s, { plan_id: v.id });
  const p1 = await get(app, s.key, first.id);
  const m1 = await membershipOf(s.key, p1.membership_id);
  assert.is(m1.status, 'trialing');
  assert.match(m1.license_key, /^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$/);
  assert.is(Math.round((Date.parse(m1.current_period_end) - Date.parse(m1.current_period_start)) / 86_400_000), 7);
  const renewal = await pay(app, s, { plan_id: v.id }, { buyerId: first.buyerId });
  const p2 = await get(app, s.key, renewal.id);
  assert.is(p2.billing_reason, 'subscription_cycle');
  assert.equal(p2.total, usd(600));
  assert.is(p2.membership_id, m1.id);
  const m2 = await membershipOf(s.key, m1.id);
  assert.is(m2.status, 'active');
  assert.is(m2.license_key, m1.license_key);
  assert.is(Math.round((Date.parse(m2.current_period_end) - Date.parse(m1.current_period_end)) / 86_400_000), 30);
  assert.is((await app.db('memberships').where({ user_id: first.buyerId })).length, 1);
  const activated = await app.db('events').where({ account_id: s.accountId, type: 'membership.activated' });
  assert.is(activated.length, 2, 'created, then trial converted');
});

t('a one-time variant is billed one_time and its membership has no period end', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { planType: 'one_time', price: 2500 });
  const { id } = await pay(app, s, { plan_id: v.id }, { card: CARDS.succeeds });
  const p = await get(app, s.key, id);
  // 2500 reaches the 3-D Secure floor, but 4242 is frictionless under mandate_if_required.
  assert.is(p.status, 'succeeded');
  assert.is(p.billing_reason, 'one_time');
  const m = await app.db('memberships').where({ id: p.membership_id }).first();
  assert.is(m.current_period_end, null);
});

t('a saved method of the member is charged; a method or member not matching is a 404', async () => {
  const s = await makeSeller(app.db);
  const saved = await makeSavedMethod(app, s.accountId);
  const ok = await create(s.key, { account_id: s.accountId, member_id: saved.memberId, payment_method_id: saved.methodId, amount: 400, currency: 'usd' });
  assert.is(ok.status, 201);
  assert.is(ok.body.member_id, saved.memberId);
  assert.is(ok.body.payment_method_id, saved.methodId);
  assert.is(ok.body.user.id, saved.buyer.id);
  await collect(app, ok.body.id);
  assert.is((await get(app, s.key, ok.body.id)).status, 'succeeded');

  const other = await makeSavedMethod(app, s.accountId);
  const wrongMethod = await create(s.key, { account_id: s.accountId, member_id: saved.memberId, payment_method_id: other.methodId, amount: 400, currency: 'usd' });
  assert.is(wrongMethod.status, 404);
  assert.is(wrongMethod.body.error.param, 'payment_method_id');
  const unknownMember = await create(s.key, { account_id: s.accountId, member_id: 'mber_nope', payment_method_id: saved.methodId, amount: 400, currency: 'usd' });
  assert.is(unknownMember.status, 404);
  assert.is(unknownMember.body.error.param, 'member_id');
  const elsewhere = await makeSeller(app.db);
  const foreign = await makeSavedMethod(app, elsewhere.accountId);
  const foreignMember = await create(s.key, { account_id: s.accountId, member_id: foreign.memberId, payment_method_id: foreign.methodId, amount: 400, currency: 'usd' });
  assert.is(foreignMember.status, 404);
  assert.is(foreignMember.body.error.param, 'member_id');
});

t('a token of another account is a 404; an expired one a 400', async () => {
  const s = await makeSeller(app.db);
  const other = await makeSeller(app.db);
  const buyer = await makeUser(app.db);
  const foreign = await makeToken(app, other.clientId);
  const res = await create(s.key, { account_id: s.accountId, confirmation_token: foreign, user_id: buyer.id, amount: 100, currency: 'usd' });
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
  assert.is(res.body.error.param, 'confirmation_token');
  // A token lives an hour of its account's time: a seller on a sandbox clock lets the hour pass (a worker runs the advance).
  const worker = await startTestApp({ worker: true });
  try {
    const life = lifecycleApi(worker);
    const shop = await life.shop(await makeSeller(worker.db));
    const old = await makeToken(worker, shop.clientId);
    await life.advanceTo(shop, shop.t0 + 61 * 60_000);
    const expired = await worker.request('POST', '/payments', {
      token: shop.key, version: VERSION,
      body: { account_id: shop.accountId, confirmation_token: old, user_id: (await makeUser(worker.db)).id, amount: 100, currency: 'usd' },
    });
    assert.is(expired.status, 400, JSON.stringify(expired.body));
    assert.is(expired.body.error.param, 'confirmation_token');
    assert.match(expired.body.error.message, /expired/);
  } finally {
    await worker.close();
  }
});

t('source and price rules are 400s naming the field', async () => {
  const s = await makeSeller(app.db);
  const buyer = await makeUser(app.db);
  const saved = await makeSavedMethod(app, s.accountId);
  const v = await makeVariant(app, s.accountId);
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ amount: 100, currency: 'usd' }, 'member_id'],
    [{ member_id: saved.memberId, amount: 100, currency: 'usd' }, 'payment_method_id'],
    [{ member_id: saved.memberId, payment_method_id: saved.methodId, user_id: buyer.id, amount: 100, currency: 'usd' }, 'user_id'],
    [{ confirmation_token: 'TOKEN', amount: 100, currency: 'usd' }, 'user_id'],
    [{ confirmation_token: 'TOKEN', member_id: saved.memberId, user_id: buyer.id, amount: 100, currency: 'usd' }, 'member_id'],
    [{ confirmation_token: 'TOKEN', user_id: buyer.id }, 'amount'],
    [{ confirmation_token: 'TOKEN', user_id: buyer.id, amount: 100 }, 'currency'],
    [{ confirmation_token: 'TOKEN', user_id: buyer.id, amount: 100, currency: 'xyz' }, 'currency'],
    [{ confirmation_token: 'TOKEN', user_id: buyer.id, amount: 100, currency: 'usd', country: 'DE' }, 'country'],
    [{ confirmation_token: 'TOKEN', user_id: buyer.id, plan_id: v.id, amount: 100 }, 'amount'],
    [{ confirmation_token: 'TOKEN', user_id: buyer.id, plan_id: v.id, currency: 'usd' }, 'currency'],
    [{ confirmation_token: 'TOKEN', user_id: buyer.id, amount: 0, currency: 'usd' }, 'amount'],
  ];
  for (const [body, param] of cases) {
    const withToken = body.confirmation_token ? { ...body, confirmation_token: await makeToken(app, s.clientId) } : body;
    const res = await create(s.key, { account_id: s.accountId, ...withToken });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error.param, param, JSON.stringify(body));
  }
  const free = await makeVariant(app, s.accountId, { price: 0 });
  const freeRes = await create(s.key, { account_id: s.accountId, confirmation_token: await makeToken(app, s.clientId), user_id: buyer.id, plan_id: free.id });
  assert.is(freeRes.status, 400);
  assert.is(freeRes.body.error.param, 'plan_id');
  assert.is(await app.db('payments').where({ account_id: s.accountId }).first(), undefined, 'nothing written');
});

t('a variant of another account or an unknown user is a 404', async () => {
  const s = await makeSeller(app.db);
  const other = await makeSeller(app.db);
  const foreignPlan = await makeVariant(app, other.accountId);
  const buyer = await makeUser(app.db);
  const res = await create(s.key, { account_id: s.accountId, confirmation_token: await makeToken(app, s.clientId), user_id: buyer.id, plan_id: foreignPlan.id });
  assert.is(res.status, 404);
  assert.is(res.body.error.param, 'plan_id');
  const gone = await makeVariant(app, s.accountId);
  assert.is((await app.request('DELETE', `/products/${gone.productId}`, { token: s.key, version: VERSION })).status, 200);
  const deleted = await create(s.key, { account_id: s.accountId, confirmation_token: await makeToken(app, s.clientId), user_id: buyer.id, plan_id: gone.id });
  assert.is(deleted.status, 404, 'a variant of a deleted product is not sold');
  assert.is(deleted.body.error.param, 'plan_id');
  const nobody = await create(s.key, { account_id: s.accountId, confirmation_token: await makeToken(app, s.clientId), user_id: 'user_nobody', amount: 100, currency: 'usd' });
  assert.is(nobody.status, 404);
  assert.is(nobody.body.error.param, 'user_id');
});

t('payment:charge is needed (403); an invisible account is a 404; no credential a 401', async () => {
  const s = await makeSeller(app.db);
  const viewer = await viewerKey(app.db, s.accountId);
  const buyer = await makeUser(app.db);
  const body = { account_id: s.accountId, confirmation_token: await makeToken(app, s.clientId), user_id: buyer.id, amount: 100, currency: 'usd' };
  const denied = await create(viewer, body);
  assert.is(denied.status, 403);
  assert.is(denied.body.error.type, 'permission_denied');
  const stranger = await makeOwner(app.db);
  const hidden = await create(stranger.key, body);
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.param, 'account_id');
  const anonymous = await app.request('POST', '/payments', { version: VERSION, body });
  assert.is(anonymous.status, 401);
  const client = await app.request('POST', '/payments', { token: s.clientId, version: VERSION, body });
  assert.is(client.status, 403);
});

t('the same Idempotency-Key replays the payment instead of charging twice', async () => {
  const s = await makeSeller(app.db);
  const buyer = await makeUser(app.db);
  const body = { account_id: s.accountId, confirmation_token: await makeToken(app, s.clientId), user_id: buyer.id, amount: 100, currency: 'usd' };
  const first = await app.request('POST', '/payments', { token: s.key, version: VERSION, body, idempotencyKey: 'charge-1' });
  const again = await app.request('POST', '/payments', { token: s.key, version: VERSION, body, idempotencyKey: 'charge-1' });
  assert.is(first.status, 201);
  assert.is(again.status, 201);
  assert.is(again.headers.get('idempotent-replayed'), 'true');
  assert.is(again.body.id, first.body.id);
  assert.is((await app.db('payments').where({ account_id: s.accountId })).length, 1);
});

t.run();
