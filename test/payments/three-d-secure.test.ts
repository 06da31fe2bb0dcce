import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { enableChallenges } from '../helpers/operator.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { CARDS, collect, get, jobsOf, makeSavedMethod, makeSeller, makeVariant, pay, VERSION } from './payment-fixtures.js';

const t = suite('3-D Secure on payments');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('a 3-D Secure card under the frictionless policy and the floor needs no step', async () => {
  const s = await makeSeller(app.db);
  const { id, created } = await pay(app, s, { amount: 999, currency: 'usd' }, { card: CARDS.threeDSecure });
  assert.is(created.status, 'processing');
  assert.is((await get(app, s.key, id)).status, 'succeeded');
});

t('at 1,000 minor units the floor raises the policy: requires_action with a redirect, then confirm_action succeeds', async () => {
  const s = await makeSeller(app.db);
  const { id, created } = await pay(app, s, { amount: 1000, currency: 'usd', return_url: 'https://shop.example/done' },
    { card: CARDS.threeDSecure, collect: false });
  assert.is(created.status, 'requires_action');
  assert.is(created.next_action.type, 'redirect_to_url');
  assert.match(created.next_action.redirect_to_url.url, /^http:\/\/127\.0\.0\.1:\d+\/sandbox\/authenticate\/[A-Za-z0-9]{32}$/);
  assert.is(created.next_action.redirect_to_url.return_url, 'https://shop.example/done');
  assert.is((await jobsOf(app, 'collect_payment', id)).length, 0, 'nothing is collected before the step');
  const confirmed = await app.request('POST', `/payments/${id}/confirm_action`, { token: s.key, version: VERSION, body: { outcome: 'succeed' } });
  assert.is(confirmed.status, 200);
  assert.is(confirmed.body.status, 'processing');
  assert.is(confirmed.body.next_action, null);
  assert.is((await jobsOf(app, 'collect_payment', id)).length, 1);
  await collect(app, id);
  assert.is((await get(app, s.key, id)).status, 'succeeded');
  const again = await app.request('POST', `/payments/${id}/confirm_action`, { token: s.key, version: VERSION, body: { outcome: 'succeed' } });
  assert.is(again.status, 400);
  assert.is(again.body.error.type, 'invalid_state');
  assert.is(again.body.error.param, 'status');
});

t('a failed step fails the payment with authentication_failed', async () => {
  const s = await makeSeller(app.db);
  const { id } = await pay(app, s, { amount: 100, currency: 'usd' }, { card: CARDS.challenge, collect: false });
  const res = await app.request('POST', `/payments/${id}/confirm_action`, { token: s.key, version: VERSION, body: { outcome: 'fail' } });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'failed');
  assert.is(res.body.failure_code, 'authentication_failed');
  assert.is((await app.db('events').where({ account_id: s.accountId, type: 'payment.failed' })).length, 1);
  const bad = await app.request('POST', `/payments/${id}/confirm_action`, { token: s.key, version: VERSION, body: { outcome: 'maybe' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'outcome');
});

t('the challenge card needs a step under every policy; mandate_challenge challenges any card', async () => {
  const s = await makeSeller(app.db);
  const small = await pay(app, s, { amount: 100, currency: 'usd' }, { card: CARDS.challenge, collect: false });
  assert.is(small.created.status, 'requires_action');
  await enableChallenges(app.db, s.accountId);
  const v = await makeVariant(app, s.accountId, { price: 200, threeDSecurePolicy: 'mandate_challenge' });
  const plain = await pay(app, s, { plan_id: v.id }, { card: CARDS.succeeds, collect: false });
  assert.is(plain.created.status, 'requires_action');
  const lenient = await makeVariant(app, s.accountId, { price: 200, threeDSecurePolicy: 'mandate_if_required' });
  const sca = await pay(app, s, { plan_id: lenient.id }, { card: CARDS.threeDSecure, collect: false });
  assert.is(sca.created.status, 'requires_action', 'the variant policy applies below the floor');
  const free = await pay(app, s, { plan_id: lenient.id }, { card: CARDS.succeeds, collect: false });
  assert.is(free.created.status, 'processing');
});

t('the account policy applies when the variant has none', async () => {
  const s = await makeSeller(app.db);
  const policy = await app.request('PATCH', `/accounts/${s.accountId}`, { token: s.key, version: VERSION, body: { three_d_secure_policy: 'mandate_if_required' } });
  assert.is(policy.status, 200, JSON.stringify(policy.body));
  const { created } = await pay(app, s, { amount: 100, currency: 'usd' }, { card: CARDS.threeDSecure, collect: false });
  assert.is(created.status, 'requires_action');
});

t('a saved-method charge with return_url has the buyer present (2026-09-02 on) unless off_session', async () => {
  const s = await makeSeller(app.db);
  const saved = await makeSavedMethod(app, s.accountId, 'requires_3ds_challenge');
  const body = { account_id: s.accountId, member_id: saved.memberId, payment_method_id: saved.methodId, amount: 500, currency: 'usd' };
  const present = await app.request('POST', '/payments', { token: s.key, version: VERSION, body: { ...body, return_url: 'https://shop.example/r' } });
  assert.is(present.status, 201);
  assert.is(present.body.status, 'requires_action');
  assert.is(present.body.next_action.redirect_to_url.return_url, 'https://shop.example/r');

  const absent = await app.request('POST', '/payments', { token: s.key, version: VERSION, body: { ...body, return_url: 'https://shop.example/r', off_session: true } });
  assert.is(absent.body.status, 'processing');
  await collect(app, absent.body.id);
  const failed = await get(app, s.key, absent.body.id);
  assert.is(failed.status, 'failed');
  assert.is(failed.failure_code, 'authentication_required');

  const noReturn = await app.request('POST', '/payments', { token: s.key, version: VERSION, body });
  assert.is(noReturn.body.status, 'processing');
});

t('before 2026-09-02 a saved-method charge never has the buyer present', async () => {
  const s = await makeSeller(app.db);
  const saved = await makeSavedMethod(app, s.accountId, 'requires_3ds_challenge');
  const res = await app.request('POST', '/payments', {
    token: s.key, version: '2026-08-28',
    body: { account_id: s.accountId, member_id: saved.memberId, payment_method_id: saved.methodId, amount: 500, currency: 'usd', return_url: 'https://shop.example/r' },
  });
  assert.is(res.status, 201);
  assert.is(res.body.status, 'processing');
  await collect(app, res.body.id);
  assert.is((await get(app, s.key, res.body.id)).failure_code, 'authentication_required');
});

t.run();
