import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeUser } from '../helpers/fixtures.js';
import {
  CARDS, collect, get, makePromo, makeSavedMethod, makeSeller, makeToken, makeVariant, pay, usd, VERSION,
} from './payment-fixtures.js';

const t = suite('POST /payments: variant stock and saving the card');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

type Seller = Awaited<ReturnType<typeof makeSeller>>;

const stockOf = async (planId: string) => (await app.db('plans').where({ id: planId }).first('stock')).stock as number | null;
const redemptions = async (id: string) => Number((await app.db('promo_codes').where({ id }).first('redemptions')).redemptions);

async function attempt(s: Seller, body: Record<string, unknown>, card = CARDS.succeeds, buyerId?: string) {
  const buyer = buyerId ?? (await makeUser(app.db)).id;
  const ctok = await makeToken(app, s.clientId, card);
  return app.request('POST', '/payments', {
    token: s.key, version: VERSION, body: { account_id: s.accountId, confirmation_token: ctok, user_id: buyer, ...body },
  });
}

const chargeSaved = (s: Seller, memberId: string, methodId: string, body: Record<string, unknown>) => app.request('POST', '/payments', {
  token: s.key, version: VERSION, body: { account_id: s.accountId, member_id: memberId, payment_method_id: methodId, ...body },
});

t('a payment takes one unit of stock; at 0 the variant is sold out (400 naming plan_id)', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { stock: 2 });
  assert.is((await attempt(s, { plan_id: v.id })).status, 201);
  assert.is(await stockOf(v.id), 1);
  const last = await attempt(s, { plan_id: v.id });
  assert.is(last.status, 201);
  assert.is(await stockOf(v.id), 0);
  const soldOut = await attempt(s, { plan_id: v.id });
  assert.is(soldOut.status, 400);
  assert.is(soldOut.body.error.param, 'plan_id');
  assert.match(soldOut.body.error.message, /sold out/);
  assert.is(await stockOf(v.id), 0);
  assert.is((await app.db('payments').where({ plan_id: v.id })).length, 2);
  // The variant's own view shows what is left.
  const variant = await app.request('GET', `/variants/${v.id}`, { token: s.key, version: VERSION });
  assert.is(variant.body.stock, 0);
});

t('an unlimited variant (stock null) stays unlimited', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId);
  const m = await makeSavedMethod(app, s.accountId);
  assert.is((await chargeSaved(s, m.memberId, m.methodId, { plan_id: v.id })).status, 201);
  assert.is(await stockOf(v.id), null);
  assert.is((await app.db('payments').where({ plan_id: v.id }).first()).stock_held, false);
});

t('concurrent buyers never take more stock than there is', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { stock: 3 });
  const buyers = await Promise.all(Array.from({ length: 8 }, () => makeSavedMethod(app, s.accountId)));
  const results = await Promise.all(buyers.map((b) => chargeSaved(s, b.memberId, b.methodId, { plan_id: v.id })));
  assert.equal(results.map((r) => r.status).sort(), [201, 201, 201, 400, 400, 400, 400, 400]);
  for (const r of results.filter((x) => x.status === 400)) assert.is(r.body.error.param, 'plan_id');
  assert.is(await stockOf(v.id), 0);
});

t('a declined card gives back the stock unit and the promo redemption; a sold-out payment refuses its promo too', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { stock: 1 });
  const promo = await makePromo(app, s.accountId, { maxRedemptions: 5 });
  const res = await attempt(s, { plan_id: v.id, promo_code: promo.code }, CARDS.declined);
  assert.is(res.status, 201);
  assert.is(await stockOf(v.id), 0);
  assert.is(await redemptions(promo.id), 1);
  // Sold out meanwhile: refused, and the code is not redeemed by the refused payment.
  const other = await attempt(s, { plan_id: v.id, promo_code: promo.code });
  assert.is(other.status, 400);
  assert.is(other.body.error.param, 'plan_id');
  assert.is(await redemptions(promo.id), 1);
  await collect(app, res.body.id);
  assert.is((await get(app, s.key, res.body.id)).failure_code, 'card_declined');
  assert.is(await stockOf(v.id), 1);
  assert.is(await redemptions(promo.id), 0);
  // Insufficient funds likewise.
  const poor = await attempt(s, { plan_id: v.id }, CARDS.insufficientFunds);
  assert.is(await stockOf(v.id), 0);
  await collect(app, poor.body.id);
  assert.is(await stockOf(v.id), 1);
  // The unit is there for the next buyer, whose payment keeps it.
  const buyer = await pay(app, s, { plan_id: v.id });
  assert.is((await get(app, s.key, buyer.id)).status, 'succeeded');
  assert.is(await stockOf(v.id), 0);
  // Retrying the declined payment needs a unit again: sold out is a 400 naming plan_id and it stays failed.
  const retried = await app.request('POST', `/payments/${res.body.id}/retry`, { token: s.key, version: VERSION });
  assert.is(retried.status, 400);
  assert.is(retried.body.error.param, 'plan_id');
  assert.is((await get(app, s.key, res.body.id)).status, 'failed');
  assert.is(await redemptions(promo.id), 0, 'the retry refused for stock took no redemption either');
});

t('retry takes the unit back; void and a failed 3-D Secure step give it back', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { stock: 5, price: 1500 });
  const declined = await pay(app, s, { plan_id: v.id }, { card: CARDS.declined });
  assert.is(await stockOf(v.id), 5);
  const retried = await app.request('POST', `/payments/${declined.id}/retry`, { token: s.key, version: VERSION });
  assert.is(retried.status, 200);
  assert.is(await stockOf(v.id), 4);
  const hold = await pay(app, s, { plan_id: v.id, capture: false });
  assert.is(await stockOf(v.id), 3);
  await app.request('POST', `/payments/${hold.id}/void`, { token: s.key, version: VERSION });
  assert.is(await stockOf(v.id), 4);
  const waiting = await pay(app, s, { plan_id: v.id }, { card: CARDS.challenge, collect: false });
  assert.is(await stockOf(v.id), 3);
  const failed = await app.request('POST', `/payments/${waiting.id}/confirm_action`, { token: s.key, version: VERSION, body: { outcome: 'fail' } });
  assert.is(failed.body.status, 'failed');
  assert.is(await stockOf(v.id), 4);
  // A succeeded or refunded payment keeps its unit.
  const kept = await pay(app, s, { plan_id: v.id });
  await app.request('POST', `/payments/${kept.id}/refund`, { token: s.key, version: VERSION });
  assert.is(await stockOf(v.id), 3);
});

t('save_payment_method: a succeeded token payment saves the card for the buyer\'s member, usable for the next charge', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 700 });
  const buyer = await makeUser(app.db);
  const res = await attempt(s, { plan_id: v.id, save_payment_method: true }, CARDS.succeeds, buyer.id);
  assert.is(res.status, 201);
  assert.is(res.body.payment_method_id, null, 'nothing is saved before the payment succeeds');
  assert.is((await app.db('payment_methods').where({ account_id: s.accountId })).length, 0);
  await collect(app, res.body.id);
  const p = await get(app, s.key, res.body.id);
  assert.is(p.status, 'succeeded');
  assert.match(p.payment_method_id, /^payt_/);
  assert.match(p.member_id, /^mber_/);
  const method = await app.db('payment_methods').where({ id: p.payment_method_id }).first();
  assert.is(method.account_id, s.accountId);
  assert.is(method.member_id, p.member_id);
  assert.is(method.user_id, buyer.id);
  assert.is(method.last4, '4242');
  assert.is(method.card_brand, 'visa');
  assert.is(method.test_behaviour, 'succeeds');
  const listed = await app.request('GET', '/payment_methods', { token: s.key, version: VERSION, query: { member_id: p.member_id } });
  assert.equal(listed.body.data.map((m: any) => m.id), [p.payment_method_id]);
  // The saved card pays the next charge without the buyer.
  const again = await chargeSaved(s, p.member_id, p.payment_method_id, { plan_id: v.id });
  assert.is(again.status, 201, JSON.stringify(again.body));
  assert.is(again.body.payment_method_id, p.payment_method_id);
  assert.equal(again.body.payment_instrument, { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
  await collect(app, again.body.id);
  const renewal = await get(app, s.key, again.body.id);
  assert.is(renewal.status, 'succeeded');
  assert.equal(renewal.total, usd(700));
  assert.is(renewal.billing_reason, 'subscription_cycle');
  assert.is((await app.db('payment_methods').where({ account_id: s.accountId })).length, 1);
});

t('without save_payment_method a token payment saves nothing; a declined one with it saves nothing either', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId);
  const plain = await pay(app, s, { plan_id: v.id });
  assert.is((await get(app, s.key, plain.id)).payment_method_id, null);
  const declined = await pay(app, s, { plan_id: v.id, save_payment_method: true }, { card: CARDS.declined });
  const d = await get(app, s.key, declined.id);
  assert.is(d.status, 'failed');
  assert.is(d.payment_method_id, null);
  assert.is((await app.db('payment_methods').where({ account_id: s.accountId })).length, 0);
});

t('a captured authorization saves the card when it is captured', async () => {
  const s = await makeSeller(app.db);
  const hold = await pay(app, s, { amount: 400, currency: 'usd', capture: false, save_payment_method: true });
  const held = await get(app, s.key, hold.id);
  assert.is(held.status, 'authorized');
  assert.is(held.payment_method_id, null);
  const captured = await app.request('POST', `/payments/${hold.id}/capture`, { token: s.key, version: VERSION });
  assert.is(captured.body.status, 'succeeded');
  assert.match(captured.body.payment_method_id, /^payt_/);
  const method = await app.db('payment_methods').where({ id: captured.body.payment_method_id }).first();
  assert.is(method.member_id, captured.body.member_id);
});

t('save_payment_method without a confirmation token is a 400 naming it', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId);
  const m = await makeSavedMethod(app, s.accountId);
  const res = await chargeSaved(s, m.memberId, m.methodId, { plan_id: v.id, save_payment_method: true });
  assert.is(res.status, 400);
  assert.is(res.body.error.param, 'save_payment_method');
  const explicitFalse = await chargeSaved(s, m.memberId, m.methodId, { plan_id: v.id, save_payment_method: false });
  assert.is(explicitFalse.status, 201);
  const notBoolean = await attempt(s, { plan_id: v.id, save_payment_method: 'yes' });
  assert.is(notBoolean.status, 400);
  assert.is(notBoolean.body.error.param, 'save_payment_method');
});

t.run();
