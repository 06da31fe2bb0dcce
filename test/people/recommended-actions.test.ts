// /accounts/{id}/recommend_actions over HTTP: each rule follows the account's real state as it changes, running a
// recommended chain records recommended_action_chain.executed and executes nothing, an action not recommended now
// is a 400 naming action (nothing recorded), another account is a 404, and a key without the scope a 403.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { makeSeller, makeVariant, pay, VERSION } from '../payments/payment-fixtures.js';
import { saveMethod } from '../payouts/payout-fixtures.js';

const t = suite('recommended-actions');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const actions = async (key: string, accountId: string) => {
  const res = await app.request('GET', `/accounts/${accountId}/recommend_actions`, { token: key, version: VERSION });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.data as any[];
};
const execute = (key: string, accountId: string, action: string) =>
  app.request('POST', `/accounts/${accountId}/recommend_actions/execute`, { token: key, version: VERSION, body: { action } });
const executions = (accountId: string) => app.db('events').where({ type: 'recommended_action_chain.executed', account_id: accountId }).select('data');

t('the list follows the account\'s state: product, variant, first sale, payout method, events, webhooks', async () => {
  const seller = await makeSeller(app.db);
  const names = async () => (await actions(seller.key, seller.accountId)).map((a) => a.action);
  const fresh = await actions(seller.key, seller.accountId);
  assert.equal(fresh.map((a) => a.action), ['create_product', 'add_payout_method', 'track_events', 'create_webhook']);
  const first = fresh[0];
  assert.equal([first.status, first.impact_score, first.cta, first.blocked_capabilities, first.steps.map((s: any) => `${s.method} ${s.path}`)],
    ['optional', 100, '/products', ['accept_card_payments'], ['POST /products', 'POST /variants', 'POST /checkout_configurations']]);
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(method, path, { token: seller.key, version: VERSION, body });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const guide = await ok('POST', '/products', { account_id: seller.accountId, title: 'Guide' });
  assert.equal(await names(), ['create_plan', 'add_payout_method', 'track_events', 'create_webhook']);
  const variant = await makeVariant(app, seller.accountId);
  assert.equal(await names(), ['add_payout_method', 'share_checkout_link', 'track_events', 'create_webhook']);
  await pay(app, seller, { amount: 1000, currency: 'usd' });
  assert.equal(await names(), ['add_payout_method', 'track_events', 'create_webhook']);
  await saveMethod(app, seller.key, { account_id: seller.accountId }, '000123456789');
  assert.equal(await names(), ['track_events', 'create_webhook']);
  const tracked = await app.request('POST', '/events', { token: seller.key, version: VERSION, body: { account_id: seller.accountId, event_name: 'page', user: { anonymous_id: 'v' } } });
  assert.is(tracked.status, 201);
  assert.equal(await names(), ['create_webhook']);
  await ok('POST', '/webhooks', { account_id: seller.accountId, url: 'https://example.com/hook' });
  assert.equal(await names(), []);
  // deleting the product (and so its variant) brings the catalogue rules back
  await ok('DELETE', `/products/${guide.id}`);
  await ok('DELETE', `/products/${variant.productId}`);
  assert.equal(await names(), ['create_product']);
});

t('running a recommended chain records recommended_action_chain.executed and changes nothing else', async () => {
  const o = await makeOwner(app.db);
  const res = await execute(o.key, o.accountId, 'create_product');
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal([res.body.object, res.body.account_id, res.body.action, res.body.steps.length], ['recommended_action_chain_execution', o.accountId, 'create_product', 3]);
  assert.ok(Math.abs(Date.parse(res.body.executed_at) - Date.now()) < 60_000);
  const recorded = await executions(o.accountId);
  assert.equal(recorded.map((e) => e.data), [res.body]);
  const products = await app.db('products').where({ account_id: o.accountId }).count('* as n');
  assert.is(Number(products[0]!.n), 0);
  assert.equal((await actions(o.key, o.accountId)).map((a) => a.action)[0], 'create_product');
});

t('an action not recommended now is a 400 naming action; unknown actions too; nothing is recorded', async () => {
  const o = await makeOwner(app.db);
  for (const action of ['create_plan', 'share_checkout_link', 'launch_rockets']) {
    const res = await execute(o.key, o.accountId, action);
    assert.equal([res.status, res.body.error.param], [400, 'action'], action);
  }
  assert.is((await execute(o.key, o.accountId, 'create_plan')).body.error.type, 'invalid_state');
  const missing = await app.request('POST', `/accounts/${o.accountId}/recommend_actions/execute`, { token: o.key, version: VERSION, body: {} });
  assert.equal([missing.status, missing.body.error.param], [400, 'action']);
  assert.equal(await executions(o.accountId), []);
});

t('another account is a 404 and a key without company:basic:read a 403; the older pin answers the same', async () => {
  const o = await makeOwner(app.db);
  const stranger = await makeOwner(app.db);
  assert.is((await app.request('GET', `/accounts/${o.accountId}/recommend_actions`, { token: stranger.key, version: VERSION })).status, 404);
  assert.is((await execute(stranger.key, o.accountId, 'create_product')).status, 404);
  assert.equal(await executions(o.accountId), []);
  const limited = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['stats:read'] }] });
  assert.is((await app.request('GET', `/accounts/${o.accountId}/recommend_actions`, { token: limited.secret, version: VERSION })).status, 403);
  const older = await app.request('GET', `/accounts/${o.accountId}/recommend_actions`, { token: o.key, version: '2025-01-01' });
  assert.equal(older.body.data, await actions(o.key, o.accountId));
});

t.run();
