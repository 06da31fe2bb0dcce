// v2 access passes (products), plans (variants), checkout sessions (checkout configurations) and the promo code
// status write, over real HTTP; the database shows the Current operation ran.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { makePromo } from '../payments/payment-fixtures.js';
import { createProduct, createVariant, createdInOrder } from '../catalogue/support.js';
import { v2, expectV2Headers, expectError, expectOk } from './support.js';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after(async () => { await app.close(); });

test('/access_passes: create, retrieve, update the sent fields only, list by page, delete', async () => {
  const o = await makeOwner(app.db);
  const created = await v2(app, 'POST', '/access_passes', { token: o.key, body: { company_id: o.accountId, title: 'Pass', description: 'Keep' } });
  expectOk(created, 201);
  expectV2Headers(app, created, '/products');
  const id = created.body.id as string;
  assert.is((await app.db('products').where({ id }).first()).account_id, o.accountId);

  const got = await v2(app, 'GET', `/access_passes/${id}`, { token: o.key });
  expectOk(got);
  assert.is(got.body.title, 'Pass');
  expectV2Headers(app, got, `/products/${id}`);

  const updated = await v2(app, 'POST', `/access_passes/${id}`, { token: o.key, body: { title: 'Renamed' } });
  expectOk(updated);
  expectV2Headers(app, updated, `/products/${id}`);
  const row = await app.db('products').where({ id }).first();
  assert.is(row.title, 'Renamed');
  assert.is(row.description, 'Keep');

  const more = [id];
  for (let i = 0; i < 4; i++) more.push((await createProduct(app, o.key, o.accountId, { title: `P${i}` })).id);
  await createdInOrder(app, 'products', more);
  const page2 = await v2(app, 'GET', '/access_passes', { token: o.key, query: { company_id: o.accountId, page: 2, per: 2 } });
  expectOk(page2);
  assert.equal(page2.body.pagination, { current_page: 2, total_page: 3 });
  assert.equal(page2.body.data.map((p: { id: string }) => p.id), [more[2], more[1]]);
  expectV2Headers(app, page2, `/products?account_id=${o.accountId}`);

  const deleted = await v2(app, 'DELETE', `/access_passes/${id}`, { token: o.key });
  expectOk(deleted);
  expectV2Headers(app, deleted, `/products/${id}`);
  const gone = await v2(app, 'GET', `/access_passes/${id}`, { token: o.key });
  expectError(gone, 404, 'not_found');
});

test('/plans: create, retrieve, list, update the sent fields only', async () => {
  const o = await makeOwner(app.db);
  const product = await createProduct(app, o.key, o.accountId);
  const created = await v2(app, 'POST', '/plans', {
    token: o.key, body: { company_id: o.accountId, product_id: product.id, plan_type: 'renewal', billing_period: 30, initial_price: 900, renewal_price: 900, title: 'Monthly' },
  });
  expectOk(created, 201);
  expectV2Headers(app, created, '/variants');
  const id = created.body.id as string;
  const got = await v2(app, 'GET', `/plans/${id}`, { token: o.key });
  expectOk(got);
  assert.is(got.body.id, id);
  expectV2Headers(app, got, `/variants/${id}`);
  assert.is(got.headers.get('deprecation'), `@${Date.parse('2025-01-01T00:00:00Z') / 1000}`);

  const updated = await v2(app, 'POST', `/plans/${id}`, { token: o.key, body: { renewal_price: 1200 } });
  expectOk(updated);
  expectV2Headers(app, updated, `/variants/${id}`);
  const row = await app.db('plans').where({ id }).first();
  assert.is(Number(row.renewal_price), 1200);
  assert.is(Number(row.initial_price), 900);
  assert.is(row.title, 'Monthly');

  const list = await v2(app, 'GET', '/plans', { token: o.key, query: { company_id: o.accountId } });
  expectOk(list);
  assert.equal(list.body.data.map((p: { id: string }) => p.id), [id]);
  assert.equal(list.body.pagination, { current_page: 1, total_page: 1 });
  expectV2Headers(app, list, `/variants?account_id=${o.accountId}`);
});

test('POST /plans/{id}/create_quick_link creates a quick-link variant copying the plan', async () => {
  const o = await makeOwner(app.db);
  const product = await createProduct(app, o.key, o.accountId);
  const plan = await createVariant(app, o.key, o.accountId, product.id, { plan_type: 'renewal', billing_period: 30, initial_price: 700, renewal_price: 800 });
  const res = await v2(app, 'POST', `/plans/${plan.id}/create_quick_link`, { token: o.key, body: { short_link: 'spring-sale', initial_price: 500 } });
  expectOk(res, 201);
  expectV2Headers(app, res, '/variants');
  assert.is.not(res.body.id, plan.id);
  const row = await app.db('plans').where({ id: res.body.id }).first();
  assert.is(row.visibility, 'quick_link');
  assert.is(row.product_id, product.id);
  assert.is(row.short_link, 'spring-sale');
  assert.is(Number(row.initial_price), 500);
  assert.is(Number(row.renewal_price), 800);
  assert.is(row.billing_period_days, 30);
  const taken = await v2(app, 'POST', `/plans/${plan.id}/create_quick_link`, { token: o.key, body: { short_link: 'spring-sale' } });
  expectError(taken, 409, 'conflict');
  expectV2Headers(app, taken, '/variants');
  const unknown = await v2(app, 'POST', `/plans/${plan.id}/create_quick_link`, { token: o.key, body: { colour: 'red' } });
  expectError(unknown, 400, 'invalid_request', 'colour');
});

test('/checkout_sessions: create, retrieve, list, delete run the checkout configuration operations', async () => {
  const o = await makeOwner(app.db);
  const product = await createProduct(app, o.key, o.accountId);
  const plan = await createVariant(app, o.key, o.accountId, product.id);
  const created = await v2(app, 'POST', '/checkout_sessions', { token: o.key, body: { company_id: o.accountId, plan_id: plan.id, redirect_url: 'https://shop.example/done' } });
  expectOk(created, 201);
  expectV2Headers(app, created, '/checkout_configurations');
  const id = created.body.id as string;
  assert.match(id, /^chcfg_/);
  assert.ok(await app.db('checkout_configurations').where({ id }).first());
  const got = await v2(app, 'GET', `/checkout_sessions/${id}`, { token: o.key });
  expectOk(got);
  expectV2Headers(app, got, `/checkout_configurations/${id}`);
  const list = await v2(app, 'GET', '/checkout_sessions', { token: o.key, query: { company_id: o.accountId, per: 1 } });
  expectOk(list);
  assert.equal(list.body.data.map((c: { id: string }) => c.id), [id]);
  assert.equal(list.body.pagination, { current_page: 1, total_page: 1 });
  const deleted = await v2(app, 'DELETE', `/checkout_sessions/${id}`, { token: o.key });
  expectOk(deleted);
  expectV2Headers(app, deleted, `/checkout_configurations/${id}`);
  expectError(await v2(app, 'GET', `/checkout_sessions/${id}`, { token: o.key }), 404, 'not_found');
});

test('POST /promo_codes/{id} writes only the status, through activate and deactivate', async () => {
  const o = await makeOwner(app.db);
  const promo = await makePromo(app, o.accountId);
  const off = await v2(app, 'POST', `/promo_codes/${promo.id}`, { token: o.key, body: { status: 'inactive' } });
  expectOk(off);
  expectV2Headers(app, off, `/promo_codes/${promo.id}/activate`);
  assert.is((await app.db('promo_codes').where({ id: promo.id }).first()).status, 'inactive');
  const on = await v2(app, 'POST', `/promo_codes/${promo.id}`, { token: o.key, body: { status: 'active' } });
  expectOk(on);
  assert.is((await app.db('promo_codes').where({ id: promo.id }).first()).status, 'active');
  const other = await v2(app, 'POST', `/promo_codes/${promo.id}`, { token: o.key, body: { status: 'active', code: 'NEW' } });
  expectError(other, 400, 'invalid_request', 'code');
  const bad = await v2(app, 'POST', `/promo_codes/${promo.id}`, { token: o.key, body: { status: 'paused' } });
  expectError(bad, 400, 'invalid_request', 'status');
  expectV2Headers(app, bad, `/promo_codes/${promo.id}/activate`);
});

test.run();
