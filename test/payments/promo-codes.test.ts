import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeUser } from '../helpers/fixtures.js';
import {
  CARDS, collect, get, makePromo, makeSavedMethod, makeSeller, makeToken, makeVariant, pay, settleRefunds, usd, VERSION,
} from './payment-fixtures.js';

const t = suite('POST /payments with a promo code');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

type Seller = Awaited<ReturnType<typeof makeSeller>>;

/** A token payment for a fresh buyer, not collected; the raw response (any status). */
async function attempt(s: Seller, body: Record<string, unknown>, card = CARDS.succeeds) {
  const buyer = await makeUser(app.db);
  const ctok = await makeToken(app, s.clientId, card);
  return app.request('POST', '/payments', {
    token: s.key, version: VERSION, body: { account_id: s.accountId, confirmation_token: ctok, user_id: buyer.id, ...body },
  });
}

const redemptions = async (id: string) => Number((await app.db('promo_codes').where({ id }).first('redemptions')).redemptions);

function refused(res: { status: number; body: any }, status: number, param: string, message?: RegExp) {
  assert.is(res.status, status, JSON.stringify(res.body));
  assert.is(res.body.error.param, param);
  if (message) assert.match(res.body.error.message, message);
}

t('a percentage code typed in any case: subtotal before discount, tax on the discounted price, total charged', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 1000 });
  const promo = await makePromo(app, s.accountId, { code: 'SPRING25', percentOff: 12.5 });
  const res = await attempt(s, { plan_id: v.id, country: 'DE', promo_code: 'spring25' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const p = res.body;
  assert.is(p.promo_code_id, promo.id);
  assert.equal(p.subtotal, usd(1000));
  // 12.5% of 1000 = 125; DE tax 19% of 875 = 166.25 -> 166.
  assert.equal(p.discount_amount, usd(125));
  assert.equal(p.tax_amount, usd(166));
  assert.equal(p.total, usd(1041));
  assert.equal(p.usd_total, usd(1041));
  assert.is(await redemptions(promo.id), 1);
  await collect(app, p.id);
  const done = await get(app, s.key, p.id);
  assert.is(done.status, 'succeeded');
  assert.equal(done.discount_amount, usd(125));
  // Fees on the total charged: 2.9% of 1041 = 30.19 -> 30, + 30 = 60; platform 1% = 10.41 -> 10.
  assert.equal(done.amount_after_fees, usd(1041 - 70));
  assert.is(await redemptions(promo.id), 1, 'a success keeps its redemption');
  // A full refund gives back what was charged, not the undiscounted price.
  const refund = await app.request('POST', `/payments/${p.id}/refund`, { token: s.key, version: VERSION });
  assert.is(refund.status, 200);
  await settleRefunds(app, p.id);
  const refunded = await get(app, s.key, p.id);
  assert.is(refunded.status, 'refunded');
  assert.equal(refunded.refunded_amount, usd(1041));
  assert.equal(refunded.tax_refunded_amount, usd(166));
});

t('percent_off rounds half up to the minor unit; a fixed code by promo_code_id takes its amount off', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 999 });
  const half = await makePromo(app, s.accountId, { percentOff: 50 });
  const a = await attempt(s, { plan_id: v.id, promo_code: half.code });
  // 50% of 999 = 499.5 -> 500.
  assert.equal(a.body.discount_amount, usd(500));
  assert.equal(a.body.total, usd(499));
  const fixed = await makePromo(app, s.accountId, { amountOff: 300 });
  const b = await attempt(s, { plan_id: v.id, promo_code_id: fixed.id });
  assert.is(b.status, 201);
  assert.is(b.body.promo_code_id, fixed.id);
  assert.equal(b.body.subtotal, usd(999));
  assert.equal(b.body.discount_amount, usd(300));
  assert.equal(b.body.total, usd(699));
  const plain = await attempt(s, { plan_id: v.id });
  assert.is(plain.body.promo_code_id, null);
  assert.equal(plain.body.discount_amount, usd(0));
  assert.equal(plain.body.total, usd(999));
  const listed = await app.request('GET', '/payments', { token: s.key, version: VERSION, query: { account_id: s.accountId } });
  assert.equal(listed.body.data.map((p: any) => p.discount_amount.amount), [0, 300, 500]);
});

t('a code on the discounted price changes the 3-D Secure floor: the total decides', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 1200, threeDSecurePolicy: 'frictionless_if_required' });
  const promo = await makePromo(app, s.accountId, { amountOff: 300 });
  // 1200 would need the step under the floor; 900 does not.
  const res = await attempt(s, { plan_id: v.id, promo_code: promo.code }, CARDS.threeDSecure);
  assert.is(res.status, 201);
  assert.is(res.body.status, 'processing');
});

t('promo input rules: one of promo_code and promo_code_id, and only with plan_id', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId);
  const promo = await makePromo(app, s.accountId);
  refused(await attempt(s, { plan_id: v.id, promo_code: promo.code, promo_code_id: promo.id }), 400, 'promo_code_id', /not both/);
  refused(await attempt(s, { amount: 500, currency: 'usd', promo_code: promo.code }), 400, 'promo_code', /variant purchases only/);
  refused(await attempt(s, { amount: 500, currency: 'usd', promo_code_id: promo.id }), 400, 'promo_code_id');
  refused(await attempt(s, { plan_id: v.id, promo_code: 'no spaces' }), 400, 'promo_code');
  assert.is(await redemptions(promo.id), 0);
  // A refused request spent nothing: not the token (rolled back with it) nor a payment.
  assert.is((await app.db('payments').where({ account_id: s.accountId })).length, 0);
});

t('an unknown code, or one of another account, is a 404 naming the field used', async () => {
  const s = await makeSeller(app.db);
  const other = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId);
  const foreign = await makePromo(app, other.accountId, { code: 'THEIRS' });
  refused(await attempt(s, { plan_id: v.id, promo_code: 'NOPE' }), 404, 'promo_code');
  refused(await attempt(s, { plan_id: v.id, promo_code: 'theirs' }), 404, 'promo_code');
  refused(await attempt(s, { plan_id: v.id, promo_code_id: foreign.id }), 404, 'promo_code_id');
  assert.is(await redemptions(foreign.id), 0);
});

t('inactive, archived, expired and exhausted codes are 400s', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId);
  const inactive = await makePromo(app, s.accountId, { status: 'inactive' });
  refused(await attempt(s, { plan_id: v.id, promo_code: inactive.code }), 400, 'promo_code', /inactive/);
  const archived = await makePromo(app, s.accountId, { status: 'archived' });
  refused(await attempt(s, { plan_id: v.id, promo_code_id: archived.id }), 400, 'promo_code_id', /archived/);
  // Expiry is judged by the database's clock (handlers/payments/pricing.ts): the code is let run out in real time.
  const expired = await makePromo(app, s.accountId, { expiresAt: new Date(Date.now() + 1_500) });
  const later = await makePromo(app, s.accountId, { expiresAt: new Date(Date.now() + 3_600_000) });
  await new Promise((resolve) => setTimeout(resolve, 1_600));
  refused(await attempt(s, { plan_id: v.id, promo_code: expired.code }), 400, 'promo_code', /expired/);
  assert.is((await attempt(s, { plan_id: v.id, promo_code: later.code })).status, 201);
  const used = await makePromo(app, s.accountId, { maxRedemptions: 3 });
  for (let i = 0; i < 3; i++) assert.is((await attempt(s, { plan_id: v.id, promo_code: used.code })).status, 201);
  refused(await attempt(s, { plan_id: v.id, promo_code: used.code }), 400, 'promo_code', /limit/);
  assert.is(await redemptions(used.id), 3);
});

t('the redemption limit: the last redemption goes through, the next buyer is refused', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId);
  const promo = await makePromo(app, s.accountId, { maxRedemptions: 2 });
  assert.is((await attempt(s, { plan_id: v.id, promo_code: promo.code })).status, 201);
  assert.is((await attempt(s, { plan_id: v.id, promo_code: promo.code })).status, 201);
  assert.is(await redemptions(promo.id), 2);
  refused(await attempt(s, { plan_id: v.id, promo_code: promo.code }), 400, 'promo_code', /reached its limit of 2/);
  assert.is(await redemptions(promo.id), 2);
});

t('concurrent buyers never redeem a code more than max_redemptions', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId);
  const promo = await makePromo(app, s.accountId, { maxRedemptions: 3 });
  // Saved-card charges: nothing but the code is shared between them.
  const buyers = await Promise.all(Array.from({ length: 8 }, () => makeSavedMethod(app, s.accountId)));
  const results = await Promise.all(buyers.map((b) => app.request('POST', '/payments', {
    token: s.key, version: VERSION,
    body: { account_id: s.accountId, member_id: b.memberId, payment_method_id: b.methodId, plan_id: v.id, promo_code_id: promo.id },
  })));
  const statuses = results.map((r) => r.status).sort();
  assert.equal(statuses, [201, 201, 201, 400, 400, 400, 400, 400]);
  for (const r of results.filter((x) => x.status === 400)) assert.is(r.body.error.param, 'promo_code_id');
  assert.is(await redemptions(promo.id), 3);
  assert.is((await app.db('payments').where({ promo_code_id: promo.id })).length, 3);
});

t('product and variant restrictions: a code for another product or variant is a 400', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId);
  const w = await makeVariant(app, s.accountId);
  const forW = await makePromo(app, s.accountId, { productId: w.productId });
  refused(await attempt(s, { plan_id: v.id, promo_code: forW.code }), 400, 'promo_code', /only valid for product/);
  assert.is((await attempt(s, { plan_id: w.id, promo_code: forW.code })).status, 201);
  const forWVariant = await makePromo(app, s.accountId, { planId: w.id });
  refused(await attempt(s, { plan_id: v.id, promo_code_id: forWVariant.id }), 400, 'promo_code_id', /only valid for variant/);
  assert.is((await attempt(s, { plan_id: w.id, promo_code_id: forWVariant.id })).status, 201);
});

t('amount_off in another currency, or a discount leaving nothing to charge, is a 400', async () => {
  const s = await makeSeller(app.db);
  const eur = await makeVariant(app, s.accountId, { price: 500, currency: 'eur' });
  const usdOff = await makePromo(app, s.accountId, { amountOff: 100, currency: 'usd' });
  refused(await attempt(s, { plan_id: eur.id, promo_code: usdOff.code }), 400, 'promo_code', /usd off; the variant is priced in eur/);
  const eurOff = await makePromo(app, s.accountId, { amountOff: 100, currency: 'eur' });
  const ok = await attempt(s, { plan_id: eur.id, promo_code: eurOff.code });
  assert.equal(ok.body.total, { amount: 400, currency: 'eur', decimals: 2, display_decimals: 2 });
  const all = await makePromo(app, s.accountId, { amountOff: 500, currency: 'eur' });
  refused(await attempt(s, { plan_id: eur.id, promo_code: all.code }), 400, 'promo_code', /nothing to charge/);
  const more = await makePromo(app, s.accountId, { amountOff: 900, currency: 'eur' });
  refused(await attempt(s, { plan_id: eur.id, promo_code_id: more.id }), 400, 'promo_code_id', /nothing to charge/);
  const free = await makePromo(app, s.accountId, { percentOff: 100 });
  refused(await attempt(s, { plan_id: eur.id, promo_code: free.code }), 400, 'promo_code', /nothing to charge/);
  for (const p of [all, more, free]) assert.is(await redemptions(p.id), 0);
});

t('a declined card gives the redemption back; retry takes it again', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId);
  const promo = await makePromo(app, s.accountId, { maxRedemptions: 1 });
  const res = await attempt(s, { plan_id: v.id, promo_code: promo.code }, CARDS.declined);
  assert.is(res.status, 201);
  assert.is(await redemptions(promo.id), 1);
  await collect(app, res.body.id);
  const failed = await get(app, s.key, res.body.id);
  assert.is(failed.status, 'failed');
  assert.is(failed.promo_code_id, promo.id, 'the payment still records its code');
  assert.is(await redemptions(promo.id), 0);
  // Collecting again changes nothing (the task is idempotent): nothing is given back twice.
  await collect(app, res.body.id);
  assert.is(await redemptions(promo.id), 0);
  // Retry takes the redemption again...
  const retried = await app.request('POST', `/payments/${res.body.id}/retry`, { token: s.key, version: VERSION });
  assert.is(retried.status, 200);
  assert.is(await redemptions(promo.id), 1);
  await collect(app, res.body.id);
  assert.is(await redemptions(promo.id), 0);
  // ...unless another buyer took the last one meanwhile.
  assert.is((await attempt(s, { plan_id: v.id, promo_code: promo.code })).status, 201);
  refused(await app.request('POST', `/payments/${res.body.id}/retry`, { token: s.key, version: VERSION }), 400, 'promo_code_id', /limit/);
  assert.is((await get(app, s.key, res.body.id)).status, 'failed');
  assert.is(await redemptions(promo.id), 1);
});

t('void of an authorization and a failed 3-D Secure step give the redemption back', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 2000 });
  const promo = await makePromo(app, s.accountId);
  const hold = await pay(app, s, { plan_id: v.id, promo_code: promo.code, capture: false });
  assert.is((await get(app, s.key, hold.id)).status, 'authorized');
  assert.is(await redemptions(promo.id), 1);
  const voided = await app.request('POST', `/payments/${hold.id}/void`, { token: s.key, version: VERSION });
  assert.is(voided.body.status, 'canceled');
  assert.is(await redemptions(promo.id), 0);
  const waiting = await pay(app, s, { plan_id: v.id, promo_code: promo.code }, { card: CARDS.challenge, collect: false });
  assert.is(waiting.created.status, 'requires_action');
  assert.is(await redemptions(promo.id), 1);
  const failed = await app.request('POST', `/payments/${waiting.id}/confirm_action`, { token: s.key, version: VERSION, body: { outcome: 'fail' } });
  assert.is(failed.body.status, 'failed');
  assert.is(await redemptions(promo.id), 0);
  const abandoned = await pay(app, s, { plan_id: v.id, promo_code: promo.code }, { card: CARDS.challenge, collect: false });
  assert.is(await redemptions(promo.id), 1);
  assert.is((await app.request('POST', `/payments/${abandoned.id}/void`, { token: s.key, version: VERSION })).body.status, 'canceled');
  assert.is(await redemptions(promo.id), 0);
});

t('a receipt shows the discount', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 1000 });
  const promo = await makePromo(app, s.accountId, { amountOff: 250 });
  const { id } = await pay(app, s, { plan_id: v.id, promo_code: promo.code });
  const res = await app.request('POST', `/payments/${id}/generate_pdf`, { token: s.key, version: VERSION });
  assert.is(res.status, 200);
  const pdf = Buffer.from(await (await fetch(`${app.server.url}${new URL(res.body.url).pathname}`)).arrayBuffer()).toString('latin1');
  assert.ok(pdf.includes("(Subtotal: 10.00 USD) '"));
  assert.ok(pdf.includes("(Discount: -2.50 USD) '"));
  assert.ok(pdf.includes("(Total: 7.50 USD) '"));
});

t.run();
