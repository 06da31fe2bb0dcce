import { headVersion } from '../../runtime/versions.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount, makeKey, makeOwner } from '../helpers/fixtures.js';
import { createProduct, createVariant, expectError, expectStatus, eventTypes, createdInOrder } from './support.js';
import { enableChallenges } from '../helpers/operator.js';
import { publicBaseUrl } from '../../handlers/shared/public-url.js';

const t = suite('checkout configurations');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

async function shop() {
  const o = await makeOwner(app.db);
  const product = await createProduct(app, o.key, o.accountId);
  const variant = await createVariant(app, o.key, o.accountId, product.id);
  return { ...o, product, variant };
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

t('payment mode with an existing variant: purchase_url, ISO timestamps, event', async () => {
  const s = await shop();
  const res = await app.request('POST', '/checkout_configurations', {
    token: s.key,
    body: { account_id: s.accountId, mode: 'payment', plan_id: s.variant.id, redirect_url: 'https://shop.example/thanks',
      three_d_secure_policy: 'mandate_if_required', metadata: { campaign: 'spring', drop: null } },
  });
  const c = expectStatus(res, 201);
  assert.match(c.id, /^chcfg_/);
  assert.is(c.account_id, s.accountId);
  assert.is(c.mode, 'payment');
  assert.is(c.plan_id, s.variant.id);
  assert.is(c.redirect_url, 'https://shop.example/thanks');
  assert.is(c.three_d_secure_policy, 'mandate_if_required');
  assert.is(c.purchase_url, `${publicBaseUrl()}/checkout/c/${c.id}`);
  assert.equal(c.metadata, { campaign: 'spring' });
  assert.match(c.created_at, ISO);
  assert.match(c.updated_at, ISO);
  assert.equal((await eventTypes(app, s.accountId)).slice(-1), ['checkout_configuration.created']);
  assert.equal(expectStatus(await app.request('GET', `/checkout_configurations/${c.id}`, { version: headVersion(), token: s.token }), 200), c);
  const defaulted = expectStatus(await app.request('POST', '/checkout_configurations', {
    token: s.key, body: { account_id: s.accountId, plan_id: s.variant.id },
  }), 201);
  assert.is(defaulted.mode, 'payment');
  assert.is(defaulted.redirect_url, null);
  assert.is(defaulted.three_d_secure_policy, null);
});

t('payment mode with an inline plan creates the variant (plan:create needed), with the variant rules', async () => {
  const s = await shop();
  const inline = { account_id: s.accountId, product_id: s.product.id, plan_type: 'renewal', billing_period: 30, initial_price: 0, renewal_price: 2000 };
  const c = expectStatus(await app.request('POST', '/checkout_configurations', {
    token: s.key, body: { account_id: s.accountId, mode: 'payment', plan: inline },
  }), 201);
  assert.match(c.plan_id, /^plan_/);
  const v = expectStatus(await app.request('GET', `/variants/${c.plan_id}`, { version: headVersion(), token: s.key }), 200);
  assert.is(v.product_id, s.product.id);
  assert.equal(v.renewal_price, { amount: 2000, currency: 'usd', decimals: 2, display_decimals: 2 });
  // Both are recorded by one transaction, so they share created_at: compare them unordered.
  assert.equal((await eventTypes(app, s.accountId)).slice(-2).sort(), ['checkout_configuration.created', 'plan.created']);

  const send = (plan: Record<string, unknown>, token = s.key) =>
    app.request('POST', '/checkout_configurations', { version: headVersion(), token, body: { account_id: s.accountId, plan } });
  expectError(await send({ ...inline, billing_period: undefined }), 400, 'invalid_request', 'plan.billing_period');
  expectError(await send({ ...inline, visibility: 'quick_link', renewal_price: undefined }), 400, 'invalid_request', 'plan.renewal_price');
  expectError(await send({ ...inline, three_d_secure_policy: 'mandate_challenge' }), 400, 'invalid_request', 'plan.three_d_secure_policy');
  expectError(await send({ ...inline, product_id: undefined }), 400, 'invalid_request', 'plan.product_id');
  const other = await shop();
  expectError(await send({ ...inline, product_id: other.product.id }), 404, 'not_found', 'plan.product_id');
  expectError(await send({ ...inline, account_id: other.accountId }), 400, 'invalid_request', 'plan.account_id');
  const child = await makeAccount(app.db, { parentId: s.accountId });
  expectError(await send({ ...inline, account_id: child.id }), 400, 'invalid_request', 'plan.account_id');
  await createVariant(app, s.key, s.accountId, s.product.id, { short_link: 'taken-link' });
  expectError(await send({ ...inline, short_link: 'taken-link' }), 409, 'conflict', 'plan.short_link');
  // A key that may create checkout configurations but not variants can only sell existing variants.
  const limited = await makeKey(app.db, { accountId: s.accountId, role: null, statements: [{ effect: 'allow', actions: ['checkout_configuration:create'] }] });
  expectError(await send(inline, limited.secret), 403, 'permission_denied');
  expectStatus(await app.request('POST', '/checkout_configurations', {
    token: limited.secret, body: { account_id: s.accountId, plan_id: s.variant.id },
  }), 201);
  const before = await app.db('plans').where({ account_id: s.accountId }).count<{ count: string }[]>('id as count');
  assert.is(Number(before[0].count), 3, 'no variant was left behind by the refused requests');
});

t('setup mode takes no variant; payment mode needs exactly one', async () => {
  const s = await shop();
  const setup = expectStatus(await app.request('POST', '/checkout_configurations', {
    token: s.key, body: { account_id: s.accountId, mode: 'setup', redirect_url: 'https://shop.example/saved' },
  }), 201);
  assert.is(setup.mode, 'setup');
  assert.is(setup.plan_id, null);
  const send = (body: Record<string, unknown>) => app.request('POST', '/checkout_configurations', { version: headVersion(), token: s.key, body: { account_id: s.accountId, ...body } });
  expectError(await send({ mode: 'setup', plan_id: s.variant.id }), 400, 'invalid_request', 'plan_id');
  expectError(await send({ mode: 'setup', plan: { account_id: s.accountId, product_id: s.product.id, plan_type: 'one_time' } }), 400, 'invalid_request', 'plan');
  expectError(await send({ mode: 'payment' }), 400, 'invalid_request', 'plan_id');
  expectError(await send({ plan_id: s.variant.id, plan: { account_id: s.accountId, product_id: s.product.id, plan_type: 'one_time' } }),
    400, 'invalid_request', 'plan');
  const other = await shop();
  expectError(await send({ plan_id: other.variant.id }), 404, 'not_found', 'plan_id');
  expectError(await send({ mode: 'subscription', plan_id: s.variant.id }), 400, 'invalid_request', 'mode');
  expectError(await send({ plan_id: s.variant.id, redirect_url: 'not a url' }), 400, 'invalid_request', 'redirect_url');
  expectError(await send({ plan_id: s.variant.id, three_d_secure_policy: 'mandate_challenge' }), 400, 'invalid_request', 'three_d_secure_policy');
  await enableChallenges(app.db, s.accountId);
  assert.is(expectStatus(await send({ plan_id: s.variant.id, three_d_secure_policy: 'mandate_challenge' }), 201).three_d_secure_policy, 'mandate_challenge');
  expectError(await app.request('POST', '/checkout_configurations', { version: headVersion(), token: s.key, body: { account_id: other.accountId, plan_id: other.variant.id } }),
    404, 'not_found', 'account_id');
  const viewer = await makeKey(app.db, { accountId: s.accountId, role: 'viewer' });
  expectError(await app.request('POST', '/checkout_configurations', { version: headVersion(), token: viewer.secret, body: { account_id: s.accountId, mode: 'setup' } }),
    403, 'permission_denied');
  expectError(await app.request('POST', '/checkout_configurations', { body: { account_id: s.accountId, mode: 'setup' } }), 401, 'authentication_required');
});

t('list, retrieve and delete: filters, pages, soft delete, 404/403/401', async () => {
  const s = await shop();
  const stranger = await shop();
  const make = async (body: Record<string, unknown>) => expectStatus(await app.request('POST', '/checkout_configurations', {
    token: s.key, body: { account_id: s.accountId, ...body },
  }), 201);
  const a = await make({ plan_id: s.variant.id });
  const b = await make({ mode: 'setup' });
  const c = await make({ plan_id: s.variant.id });
  await app.request('POST', '/checkout_configurations', { version: headVersion(), token: stranger.key, body: { account_id: stranger.accountId, mode: 'setup' } });
  await createdInOrder(app, 'checkout_configurations', [a.id, b.id, c.id]);
  const ids = (res: any) => expectStatus(res, 200).data.map((x: any) => x.id);
  assert.equal(ids(await app.request('GET', '/checkout_configurations', { version: headVersion(), token: s.key })), [c.id, b.id, a.id]);
  assert.equal(ids(await app.request('GET', '/checkout_configurations', { version: headVersion(), token: s.key, query: { account_id: s.accountId, mode: 'setup' } })), [b.id]);
  assert.equal(ids(await app.request('GET', '/checkout_configurations', { version: headVersion(), token: s.key, query: { plan_id: s.variant.id, direction: 'asc' } })), [a.id, c.id]);
  const p1 = expectStatus(await app.request('GET', '/checkout_configurations', { version: headVersion(), token: s.key, query: { first: 2 } }), 200);
  const p2 = expectStatus(await app.request('GET', '/checkout_configurations', { version: headVersion(), token: s.key, query: { first: 2, after: p1.page_info.end_cursor } }), 200);
  assert.equal(p2.data.map((x: any) => x.id), [a.id]);
  assert.is(p2.page_info.has_next_page, false);
  expectError(await app.request('GET', '/checkout_configurations', { version: headVersion(), token: s.key, query: { account_id: stranger.accountId } }), 404, 'not_found', 'account_id');
  expectError(await app.request('GET', '/checkout_configurations', { version: headVersion(), token: s.key, query: { mode: 'other' } }), 400, 'invalid_request', 'mode');
  expectError(await app.request('GET', '/checkout_configurations', {}), 401, 'authentication_required');

  expectError(await app.request('GET', `/checkout_configurations/${a.id}`, { version: headVersion(), token: stranger.key }), 404, 'not_found', 'id');
  expectError(await app.request('DELETE', `/checkout_configurations/${a.id}`, { version: headVersion(), token: stranger.key }), 404, 'not_found', 'id');
  const viewer = await makeKey(app.db, { accountId: s.accountId, role: 'viewer' });
  expectError(await app.request('GET', `/checkout_configurations/${a.id}`, { version: headVersion(), token: viewer.secret }), 403, 'permission_denied');
  expectError(await app.request('DELETE', `/checkout_configurations/${a.id}`, { version: headVersion(), token: viewer.secret }), 403, 'permission_denied');

  assert.equal(expectStatus(await app.request('DELETE', `/checkout_configurations/${a.id}`, { version: headVersion(), token: s.key }), 200), { id: a.id, deleted: true });
  assert.ok((await app.db('checkout_configurations').where({ id: a.id }).first()).deleted_at);
  expectError(await app.request('GET', `/checkout_configurations/${a.id}`, { version: headVersion(), token: s.key }), 404, 'not_found', 'id');
  expectError(await app.request('DELETE', `/checkout_configurations/${a.id}`, { version: headVersion(), token: s.key }), 404, 'not_found', 'id');
  assert.equal(ids(await app.request('GET', '/checkout_configurations', { version: headVersion(), token: s.key })), [c.id, b.id]);
  assert.equal((await eventTypes(app, s.accountId)).slice(-1), ['checkout_configuration.deleted']);
});

t.run();
