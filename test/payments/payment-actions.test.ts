import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { CARDS, collect, get, jobsOf, makeSeller, makeVariant, pay, usd, VERSION, viewerKey } from './payment-fixtures.js';

const t = suite('capture, void, retry and fees');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const post = (key: string, path: string) => app.request('POST', path, { token: key, version: VERSION });

t('capture false: collection places a hold (authorized), capture succeeds it with fees and fulfilment', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 1000 });
  const { id } = await pay(app, s, { plan_id: v.id, capture: false });
  const held = await get(app, s.key, id);
  assert.is(held.status, 'authorized');
  assert.is(held.membership_id, null);
  assert.is((await app.db('payment_fees').where({ payment_id: id })).length, 0);
  const res = await post(s.key, `/payments/${id}/capture`);
  assert.is(res.status, 200);
  assert.is(res.body.status, 'succeeded');
  assert.ok(res.body.membership_id);
  // 2.9% of 1000 = 29 + 30 = 59; platform 10.
  assert.equal(res.body.amount_after_fees, usd(931));
  const again = await post(s.key, `/payments/${id}/capture`);
  assert.is(again.status, 400);
  assert.is(again.body.error.type, 'invalid_state');
  assert.match(again.body.error.message, /allowed from: authorized/);
});

t('void releases a hold or abandons a 3-D Secure wait; a succeeded payment cannot be voided', async () => {
  const s = await makeSeller(app.db);
  const hold = await pay(app, s, { amount: 300, currency: 'usd', capture: false });
  const voided = await post(s.key, `/payments/${hold.id}/void`);
  assert.is(voided.status, 200);
  assert.is(voided.body.status, 'canceled');
  const waiting = await pay(app, s, { amount: 300, currency: 'usd' }, { card: CARDS.challenge, collect: false });
  const abandoned = await post(s.key, `/payments/${waiting.id}/void`);
  assert.is(abandoned.body.status, 'canceled');
  assert.is(abandoned.body.next_action, null);
  const done = await pay(app, s, { amount: 300, currency: 'usd' });
  const refused = await post(s.key, `/payments/${done.id}/void`);
  assert.is(refused.status, 400);
  assert.is(refused.body.error.type, 'invalid_state');
  assert.is(refused.body.error.param, 'status');
  const cannotCapture = await post(s.key, `/payments/${hold.id}/capture`);
  assert.is(cannotCapture.status, 400);
});

t('retry puts a failed payment back to processing and collects it again', async () => {
  const s = await makeSeller(app.db);
  const { id } = await pay(app, s, { amount: 300, currency: 'usd' }, { card: CARDS.insufficientFunds });
  const res = await post(s.key, `/payments/${id}/retry`);
  assert.is(res.status, 200);
  assert.is(res.body.status, 'processing');
  assert.is(res.body.failure_code, null);
  assert.ok(res.body.next_payment_attempt_at);
  assert.is((await jobsOf(app, 'collect_payment', id)).length, 1);
  await collect(app, id);
  assert.is((await get(app, s.key, id)).failure_code, 'insufficient_funds', 'the same card is refused again');
  const ok = await pay(app, s, { amount: 300, currency: 'usd' });
  const notFailed = await post(s.key, `/payments/${ok.id}/retry`);
  assert.is(notFailed.status, 400);
  assert.is(notFailed.body.error.type, 'invalid_state');
});

t('actions need payment:charge (403) and a visible payment (404)', async () => {
  const s = await makeSeller(app.db);
  const { id } = await pay(app, s, { amount: 300, currency: 'usd', capture: false });
  const viewer = await viewerKey(app.db, s.accountId);
  for (const action of ['capture', 'void', 'retry', 'refund']) {
    const res = await post(viewer, `/payments/${id}/${action}`);
    assert.is(res.status, 403, action);
    assert.is(res.body.error.type, 'permission_denied');
  }
  const stranger = await makeOwner(app.db);
  const hidden = await post(stranger.key, `/payments/${id}/capture`);
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.param, 'id');
  const unknown = await post(s.key, '/payments/pay_nope/void');
  assert.is(unknown.status, 404);
});

t('GET /payments/{id}/fees lists the processing and platform fees once collected', async () => {
  const s = await makeSeller(app.db);
  const pending = await pay(app, s, { amount: 2000, currency: 'usd' }, { collect: false });
  const none = await app.request('GET', `/payments/${pending.id}/fees`, { token: s.key, version: VERSION });
  assert.is(none.status, 200);
  assert.equal(none.body.data, []);
  await collect(app, pending.id);
  const res = await app.request('GET', `/payments/${pending.id}/fees`, { token: s.key, version: VERSION });
  assert.is(res.body.data.length, 2);
  const [processing, platform] = res.body.data;
  assert.is(processing.type, 'processing_fee');
  assert.is(processing.origin, 'processor');
  assert.is(processing.label, 'Processing fee');
  assert.equal(processing.amount, usd(88));
  assert.equal(processing.settlement_amount, usd(88));
  assert.ok(processing.collected_at);
  assert.is(platform.type, 'platform_fee');
  assert.equal(platform.amount, usd(20));
  const stranger = await makeOwner(app.db);
  const hidden = await app.request('GET', `/payments/${pending.id}/fees`, { token: stranger.key, version: VERSION });
  assert.is(hidden.status, 404);
});

t.run();
