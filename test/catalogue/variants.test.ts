import { headVersion } from '../../runtime/versions.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount, makeKey, makeOwner } from '../helpers/fixtures.js';
import { createProduct, createVariant, expectError, expectStatus, eventTypes, createdInOrder } from './support.js';
import { enableChallenges } from '../helpers/operator.js';
import { publicBaseUrl } from '../../handlers/shared/public-url.js';

const t = suite('variants');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

async function shop() {
  const o = await makeOwner(app.db);
  const product = await createProduct(app, o.key, o.accountId);
  return { ...o, product };
}

const usd = (amount: number) => ({ amount, currency: 'usd', decimals: 2, display_decimals: 2 });

t('create a renewal variant: money objects out, minor units in, purchase_url, plan.created', async () => {
  const s = await shop();
  const res = await app.request('POST', '/variants', {
    token: s.key,
    body: {
      account_id: s.accountId, product_id: s.product.id, title: 'Monthly', plan_type: 'renewal', billing_period: 30,
      trial_period_days: 7, initial_price: 500, renewal_price: 1500, metadata: { tier: 'gold' },
    },
  });
  const v = expectStatus(res, 201);
  assert.match(v.id, /^plan_/);
  assert.is(v.account_id, s.accountId);
  assert.is(v.product_id, s.product.id);
  assert.is(v.plan_type, 'renewal');
  assert.is(v.billing_period, 30);
  assert.is(v.trial_period_days, 7);
  assert.is(v.currency, 'usd');
  assert.equal(v.initial_price, usd(500));
  assert.equal(v.renewal_price, usd(1500));
  assert.is(v.visibility, 'visible');
  assert.is(v.stock, null);
  assert.is(v.short_link, null);
  assert.is(v.three_d_secure_policy, null);
  assert.is(v.purchase_url, `${publicBaseUrl()}/checkout/p/${v.id}`);
  assert.equal(v.metadata, { tier: 'gold' });
  assert.equal(await eventTypes(app, s.accountId), ['product.created', 'plan.created']);
  assert.equal(expectStatus(await app.request('GET', `/variants/${v.id}`, { version: headVersion(), token: s.token }), 200), v);
});

t('one_time variants: no renewal terms; zero-decimal currencies', async () => {
  const s = await shop();
  const v = await createVariant(app, s.key, s.accountId, s.product.id, { currency: 'jpy', initial_price: 1200 });
  assert.equal(v.initial_price, { amount: 1200, currency: 'jpy', decimals: 0, display_decimals: 0 });
  assert.is(v.renewal_price, null);
  assert.is(v.billing_period, null);
  for (const field of ['billing_period', 'renewal_price', 'trial_period_days']) {
    expectError(await app.request('POST', '/variants', {
      token: s.key, body: { account_id: s.accountId, product_id: s.product.id, plan_type: 'one_time', [field]: 3 },
    }), 400, 'invalid_request', field);
  }
  expectError(await app.request('POST', '/variants', {
    token: s.key, body: { account_id: s.accountId, product_id: s.product.id, plan_type: 'renewal' },
  }), 400, 'invalid_request', 'billing_period');
  expectError(await app.request('POST', '/variants', {
    token: s.key, body: { account_id: s.accountId, product_id: s.product.id },
  }), 400, 'invalid_request', 'plan_type');
  expectError(await app.request('POST', '/variants', {
    token: s.key, body: { account_id: s.accountId, product_id: s.product.id, plan_type: 'one_time', initial_price: -1 },
  }), 400, 'invalid_request', 'initial_price');
  expectError(await app.request('POST', '/variants', {
    token: s.key, body: { account_id: s.accountId, product_id: s.product.id, plan_type: 'one_time', currency: 'USD' },
  }), 400, 'invalid_request', 'currency');
});

t('create checks the product belongs to the account, the account is visible and plan:create is held', async () => {
  const s = await shop();
  const other = await shop();
  expectError(await app.request('POST', '/variants', {
    token: s.key, body: { account_id: s.accountId, product_id: other.product.id, plan_type: 'one_time' },
  }), 404, 'not_found', 'product_id');
  expectError(await app.request('POST', '/variants', {
    token: s.key, body: { account_id: other.accountId, product_id: other.product.id, plan_type: 'one_time' },
  }), 404, 'not_found', 'account_id');
  const viewer = await makeKey(app.db, { accountId: s.accountId, role: 'viewer' });
  expectError(await app.request('POST', '/variants', {
    token: viewer.secret, body: { account_id: s.accountId, product_id: s.product.id, plan_type: 'one_time' },
  }), 403, 'permission_denied');
  const sales = await makeKey(app.db, { accountId: s.accountId, role: 'sales_manager' });
  expectStatus(await app.request('POST', '/variants', {
    token: sales.secret, body: { account_id: s.accountId, product_id: s.product.id, plan_type: 'one_time' },
  }), 201);
  expectError(await app.request('POST', '/variants', {
    body: { account_id: s.accountId, product_id: s.product.id, plan_type: 'one_time' },
  }), 401, 'authentication_required');
});

t('quick links: price fields required, short_link unique (409) or generated, purchase_url by slug', async () => {
  const s = await shop();
  const base = { account_id: s.accountId, product_id: s.product.id, visibility: 'quick_link' };
  expectError(await app.request('POST', '/variants', { version: headVersion(), token: s.key, body: { ...base, plan_type: 'one_time', stock: 5 } }),
    400, 'invalid_request', 'initial_price');
  expectError(await app.request('POST', '/variants', {
    token: s.key, body: { ...base, plan_type: 'renewal', billing_period: 30, initial_price: 100 },
  }), 400, 'invalid_request', 'renewal_price');
  const q = expectStatus(await app.request('POST', '/variants', {
    token: s.key, body: { ...base, plan_type: 'one_time', initial_price: 2500, stock: 10, short_link: 'spring-sale' },
  }), 201);
  assert.is(q.visibility, 'quick_link');
  assert.is(q.stock, 10);
  assert.is(q.short_link, 'spring-sale');
  assert.is(q.purchase_url, `${publicBaseUrl()}/checkout/q/spring-sale`);
  const other = await shop();
  expectError(await app.request('POST', '/variants', {
    token: other.key, body: { account_id: other.accountId, product_id: other.product.id, plan_type: 'one_time', visibility: 'quick_link', initial_price: 1, short_link: 'spring-sale' },
  }), 409, 'conflict', 'short_link');
  const generated = expectStatus(await app.request('POST', '/variants', {
    token: s.key, body: { ...base, plan_type: 'renewal', billing_period: 7, initial_price: 0, renewal_price: 900 },
  }), 201);
  assert.match(generated.short_link, /^[A-Za-z0-9]{8}$/);
  expectError(await app.request('POST', '/variants', {
    token: s.key, body: { ...base, plan_type: 'one_time', initial_price: 1, short_link: 'no spaces' },
  }), 400, 'invalid_request', 'short_link');
});

t('three_d_secure_policy mandate_challenge needs challenges enabled on the account or its parent', async () => {
  const s = await shop();
  const body = { account_id: s.accountId, product_id: s.product.id, plan_type: 'one_time', three_d_secure_policy: 'mandate_challenge' };
  expectError(await app.request('POST', '/variants', { version: headVersion(), token: s.key, body }), 400, 'invalid_request', 'three_d_secure_policy');
  const ok = expectStatus(await app.request('POST', '/variants', { version: headVersion(), token: s.key, body: { ...body, three_d_secure_policy: 'frictionless_if_required' } }), 201);
  assert.is(ok.three_d_secure_policy, 'frictionless_if_required');
  expectError(await app.request('PATCH', `/variants/${ok.id}`, { version: headVersion(), token: s.key, body: { three_d_secure_policy: 'mandate_challenge' } }),
    400, 'invalid_request', 'three_d_secure_policy');
  const child = await makeAccount(app.db, { parentId: s.accountId });
  const childProduct = await createProduct(app, s.key, child.id);
  const childBody = { ...body, account_id: child.id, product_id: childProduct.id };
  expectError(await app.request('POST', '/variants', { version: headVersion(), token: s.key, body: childBody }), 400, 'invalid_request', 'three_d_secure_policy');
  await enableChallenges(app.db, s.accountId);
  const v = expectStatus(await app.request('POST', '/variants', { version: headVersion(), token: s.key, body }), 201);
  assert.is(v.three_d_secure_policy, 'mandate_challenge');
  expectStatus(await app.request('POST', '/variants', { version: headVersion(), token: s.key, body: childBody }), 201);
});

t('list: filters by account and product, every readable account by default, cursor pages', async () => {
  const s = await shop();
  const second = await createProduct(app, s.key, s.accountId);
  const stranger = await shop();
  const a = await createVariant(app, s.key, s.accountId, s.product.id);
  const b = await createVariant(app, s.key, s.accountId, second.id, { plan_type: 'renewal', billing_period: 30, renewal_price: 10 });
  const c = await createVariant(app, s.key, s.accountId, s.product.id, { visibility: 'hidden' });
  await createVariant(app, stranger.key, stranger.accountId, stranger.product.id);
  await createdInOrder(app, 'plans', [a.id, b.id, c.id]);
  const ids = (res: any) => expectStatus(res, 200).data.map((v: any) => v.id);
  assert.equal(ids(await app.request('GET', '/variants', { version: headVersion(), token: s.key })), [c.id, b.id, a.id]);
  assert.equal(ids(await app.request('GET', '/variants', { version: headVersion(), token: s.key, query: { account_id: s.accountId } })), [c.id, b.id, a.id]);
  assert.equal(ids(await app.request('GET', '/variants', { version: headVersion(), token: s.key, query: { product_id: s.product.id } })), [c.id, a.id]);
  assert.equal(ids(await app.request('GET', '/variants', { version: headVersion(), token: s.key, query: { product_id: stranger.product.id } })), []);
  assert.equal(ids(await app.request('GET', '/variants', { version: headVersion(), token: s.key, query: { plan_type: 'renewal' } })), [b.id]);
  assert.equal(ids(await app.request('GET', '/variants', { version: headVersion(), token: s.key, query: { visibility: 'hidden' } })), [c.id]);
  const p1 = expectStatus(await app.request('GET', '/variants', { version: headVersion(), token: s.key, query: { first: 2 } }), 200);
  assert.equal(p1.data.map((v: any) => v.id), [c.id, b.id]);
  const p2 = expectStatus(await app.request('GET', '/variants', { version: headVersion(), token: s.key, query: { first: 2, after: p1.page_info.end_cursor } }), 200);
  assert.equal(p2.data.map((v: any) => v.id), [a.id]);
  assert.is(p2.page_info.has_next_page, false);
  const back = expectStatus(await app.request('GET', '/variants', { version: headVersion(), token: s.key, query: { last: 2, before: p2.page_info.start_cursor } }), 200);
  assert.equal(back.data.map((v: any) => v.id), [c.id, b.id]);
  expectError(await app.request('GET', '/variants', { version: headVersion(), token: s.key, query: { account_id: stranger.accountId } }), 404, 'not_found', 'account_id');
  expectError(await app.request('GET', '/variants', { version: headVersion(), token: s.key, query: { plan_type: 'weekly' } }), 400, 'invalid_request', 'plan_type');
  const noScope = await makeKey(app.db, { accountId: s.accountId, role: 'viewer' });
  assert.equal(ids(await app.request('GET', '/variants', { version: headVersion(), token: noScope.secret })), [c.id, b.id, a.id], 'viewers read variants');
});

t('retrieve and update: 404 for strangers, 403 without plan:update, rules re-checked', async () => {
  const s = await shop();
  const stranger = await shop();
  const v = await createVariant(app, s.key, s.accountId, s.product.id, { plan_type: 'renewal', billing_period: 30, renewal_price: 900 });
  expectError(await app.request('GET', `/variants/${v.id}`, { version: headVersion(), token: stranger.key }), 404, 'not_found', 'id');
  expectError(await app.request('GET', '/variants/plan_nope', { version: headVersion(), token: s.key }), 404, 'not_found', 'id');
  const viewer = await makeKey(app.db, { accountId: s.accountId, role: 'viewer' });
  expectError(await app.request('PATCH', `/variants/${v.id}`, { version: headVersion(), token: viewer.secret, body: { title: 'x' } }), 403, 'permission_denied');
  expectError(await app.request('PATCH', `/variants/${v.id}`, { version: headVersion(), token: stranger.key, body: { title: 'x' } }), 404, 'not_found', 'id');
  expectError(await app.request('PATCH', `/variants/${v.id}`, { version: headVersion(), token: s.key, body: { plan_type: 'one_time' } }), 400, 'invalid_request', 'plan_type');
  expectError(await app.request('PATCH', `/variants/${v.id}`, { version: headVersion(), token: s.key, body: { visibility: 'quick_link' } }), 400, 'invalid_request', 'initial_price');
  expectError(await app.request('PATCH', `/variants/${v.id}`, { version: headVersion(), token: s.key, body: { visibility: 'quick_link', initial_price: 5 } }),
    400, 'invalid_request', 'renewal_price');
  const u = expectStatus(await app.request('PATCH', `/variants/${v.id}`, {
    token: s.key, body: { visibility: 'quick_link', initial_price: 5, renewal_price: 700, stock: 3, short_link: 'vip-club', billing_period: 14 },
  }), 200);
  assert.is(u.visibility, 'quick_link');
  assert.equal(u.initial_price, usd(5));
  assert.equal(u.renewal_price, usd(700));
  assert.is(u.billing_period, 14);
  assert.is(u.stock, 3);
  assert.is(u.purchase_url, `${publicBaseUrl()}/checkout/q/vip-club`);
  const same = expectStatus(await app.request('PATCH', `/variants/${v.id}`, { version: headVersion(), token: s.key, body: { stock: 3 } }), 200);
  assert.equal(same, u);
  assert.equal((await eventTypes(app, s.accountId)).filter((e) => e === 'plan.updated'), ['plan.updated']);
  const other = await createVariant(app, s.key, s.accountId, s.product.id);
  expectError(await app.request('PATCH', `/variants/${other.id}`, { version: headVersion(), token: s.key, body: { short_link: 'vip-club' } }), 409, 'conflict', 'short_link');
  expectError(await app.request('PATCH', `/variants/${other.id}`, { version: headVersion(), token: s.key, body: { renewal_price: 5 } }), 400, 'invalid_request', 'renewal_price');
  const cleared = expectStatus(await app.request('PATCH', `/variants/${v.id}`, { version: headVersion(), token: s.key, body: { short_link: null, visibility: 'hidden' } }), 200);
  assert.is(cleared.short_link, null);
  assert.is(cleared.purchase_url, `${publicBaseUrl()}/checkout/p/${v.id}`);
  const relinked = expectStatus(await app.request('PATCH', `/variants/${other.id}`, { version: headVersion(), token: s.key, body: { visibility: 'quick_link', initial_price: 50 } }), 200);
  assert.match(relinked.short_link, /^[A-Za-z0-9]{8}$/);
  assert.is(relinked.purchase_url, `${publicBaseUrl()}/checkout/q/${relinked.short_link}`);
});

t('/plans routes run the same operations, with Deprecation and successor Link headers', async () => {
  const s = await shop();
  const created = await app.request('POST', '/plans', {
    token: s.key, body: { account_id: s.accountId, product_id: s.product.id, plan_type: 'one_time', initial_price: 300 },
  });
  const v = expectStatus(created, 201);
  assert.match(v.id, /^plan_/);
  assert.is(created.headers.get('deprecation'), 'true');
  assert.is(created.headers.get('link'), '</api/v1/variants>; rel="successor-version"');
  const listed = await app.request('GET', '/plans', { version: headVersion(), token: s.key, query: { product_id: s.product.id } });
  assert.equal(expectStatus(listed, 200).data.map((p: any) => p.id), [v.id]);
  assert.is(listed.headers.get('deprecation'), 'true');
  const got = await app.request('GET', `/plans/${v.id}`, { version: headVersion(), token: s.key });
  assert.equal(expectStatus(got, 200), expectStatus(await app.request('GET', `/variants/${v.id}`, { version: headVersion(), token: s.key }), 200));
  assert.is(got.headers.get('link'), `</api/v1/variants/${v.id}>; rel="successor-version"`);
  const patched = await app.request('PATCH', `/plans/${v.id}`, { version: headVersion(), token: s.key, body: { title: 'Old route' } });
  assert.is(expectStatus(patched, 200).title, 'Old route');
  assert.is(patched.headers.get('deprecation'), 'true');
  expectError(await app.request('POST', '/plans', {
    token: s.key, body: { account_id: s.accountId, product_id: s.product.id, plan_type: 'renewal' },
  }), 400, 'invalid_request', 'billing_period');
  const current = await app.request('GET', `/variants/${v.id}`, { version: headVersion(), token: s.key });
  assert.is(current.headers.get('deprecation'), null);
  assert.is(current.headers.get('link'), null);
});

t('calculate_tax on /variants and /plans: rate by buyer country, deprecated towards /payment_quotes', async () => {
  const s = await shop();
  const v = await createVariant(app, s.key, s.accountId, s.product.id, { initial_price: 1999 });
  const de = await app.request('POST', `/variants/${v.id}/calculate_tax`, { version: headVersion(), token: s.key, body: { country: 'DE' } });
  assert.equal(expectStatus(de, 200), {
    plan_id: v.id, country: 'DE', tax_rate: 19, subtotal: usd(1999), tax_amount: usd(380), total: usd(2379),
  });
  assert.is(de.headers.get('deprecation'), 'true');
  assert.is(de.headers.get('link'), '</api/v1/payment_quotes>; rel="successor-version"');
  const plans = await app.request('POST', `/plans/${v.id}/calculate_tax`, { version: headVersion(), token: s.key, body: { country: 'US' } });
  assert.equal(expectStatus(plans, 200), {
    plan_id: v.id, country: 'US', tax_rate: 0, subtotal: usd(1999), tax_amount: usd(0), total: usd(1999),
  });
  assert.is(plans.headers.get('link'), '</api/v1/payment_quotes>; rel="successor-version"');
  const half = await createVariant(app, s.key, s.accountId, s.product.id, { initial_price: 10 });
  // 10 x 5% = 0.5 minor units: rounds half up to 1
  assert.equal(expectStatus(await app.request('POST', `/variants/${half.id}/calculate_tax`, { version: headVersion(), token: s.key, body: { country: 'CA' } }), 200).tax_amount, usd(1));
  expectError(await app.request('POST', `/variants/${v.id}/calculate_tax`, { version: headVersion(), token: s.key, body: {} }), 400, 'invalid_request', 'country');
  expectError(await app.request('POST', `/variants/${v.id}/calculate_tax`, { version: headVersion(), token: s.key, body: { country: 'germany' } }), 400, 'invalid_request', 'country');
  const stranger = await makeOwner(app.db);
  expectError(await app.request('POST', `/variants/${v.id}/calculate_tax`, { version: headVersion(), token: stranger.key, body: { country: 'DE' } }), 404, 'not_found', 'id');
  const noScope = await makeKey(app.db, { accountId: s.accountId, role: null, statements: [{ effect: 'allow', actions: ['company:basic:read'] }] });
  expectError(await app.request('POST', `/variants/${v.id}/calculate_tax`, { version: headVersion(), token: noScope.secret, body: { country: 'DE' } }), 403, 'permission_denied');
  expectError(await app.request('POST', `/plans/${v.id}/calculate_tax`, { version: headVersion(), token: noScope.secret, body: { country: 'DE' } }), 403, 'permission_denied');
  expectError(await app.request('POST', `/plans/${v.id}/calculate_tax`, { body: { country: 'DE' } }), 401, 'authentication_required');
});

t.run();
