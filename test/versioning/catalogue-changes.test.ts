// Implemented changelog entries on the catalogue (46, 54, 56), at the version before each and the version after.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';

const t = suite('versioning: catalogue changes');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;
t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db, { title: 'Catalogue shop' });
});
t.after(async () => { await app.close(); });

const call = (method: string, path: string, version: string, body?: unknown, query?: Record<string, string>) =>
  app.request(method, path, { token: o.key, version, body, query });

t('#54 products answer with account from 2026-07-22 and company before', async () => {
  const created = await call('POST', '/products', '2026-07-22', { account_id: o.accountId, title: 'Course' });
  assert.is(created.status, 201);
  assert.is(created.body.account.id, o.accountId);
  const old = await call('GET', `/products/${created.body.id}`, '2025-01-01');
  assert.is(old.body.company.id, o.accountId);
  assert.not.ok('account' in old.body);
});

t('#56 account_id replaced company_id in product, variant and checkout requests and responses', async () => {
  const product = await call('POST', '/products', '2025-01-01', { company_id: o.accountId, title: 'Old style' });
  assert.is(product.status, 201, JSON.stringify(product.body));
  assert.is((await call('POST', '/products', '2025-01-01', { account_id: o.accountId, title: 'x' })).body.error.param, 'company_id'); // required at that version
  assert.is((await call('POST', '/products', '2026-07-22', { company_id: o.accountId, title: 'x' })).body.error.param, 'account_id');
  const variant = await call('POST', '/variants', '2025-01-01',
    { company_id: o.accountId, product_id: product.body.id, plan_type: 'one_time', initial_price: 1000 });
  assert.is(variant.status, 201, JSON.stringify(variant.body));
  assert.is(variant.body.company_id, o.accountId);
  assert.not.ok('account_id' in variant.body);
  const listed = await call('GET', '/variants', '2025-01-01', undefined, { company_id: o.accountId });
  assert.is(listed.status, 200);
  assert.ok(listed.body.data.some((v: any) => v.id === variant.body.id));
  assert.is((await call('GET', `/variants/${variant.body.id}`, '2026-07-22')).body.account_id, o.accountId);
  // The inline plan of a checkout configuration is renamed too.
  const inline = await call('POST', '/checkout_configurations', '2025-01-01', {
    company_id: o.accountId, mode: 'payment',
    plan: { company_id: o.accountId, product_id: product.body.id, plan_type: 'one_time', initial_price: 500 },
  });
  assert.is(inline.status, 201, JSON.stringify(inline.body));
  assert.is(inline.body.company_id, o.accountId);
});

t('#56 checkout configuration timestamps are epoch seconds before 2026-07-22 and ISO 8601 from it', async () => {
  const product = await call('POST', '/products', '2026-09-06', { account_id: o.accountId, title: 'Setup' });
  const config = await call('POST', '/checkout_configurations', '2026-07-22', { account_id: o.accountId, mode: 'setup' });
  assert.is(config.status, 201, JSON.stringify(config.body));
  assert.match(config.body.created_at, /^\d{4}-\d{2}-\d{2}T/);
  const old = await call('GET', `/checkout_configurations/${config.body.id}`, '2025-01-01');
  assert.is(typeof old.body.created_at, 'number');
  assert.is(old.body.created_at, Math.floor(Date.parse(config.body.created_at) / 1000));
  assert.ok(product.body.id);
});

t('#46 native promo code endpoints exist from 2026-08-07 and not before', async () => {
  const body = { account_id: o.accountId, code: 'SPRING', percent_off: 10 };
  const created = await call('POST', '/promo_codes', '2026-08-07', body);
  assert.is(created.status, 201, JSON.stringify(created.body));
  const before = await call('GET', `/promo_codes/${created.body.id}`, '2026-07-30');
  assert.is(before.status, 404);
  assert.match(before.body.error.message, 'does not exist at API version 2026-07-30');
  assert.is((await call('POST', `/promo_codes/${created.body.id}/deactivate`, '2026-07-30')).status, 404);
  assert.is((await call('GET', `/promo_codes/${created.body.id}`, '2026-08-07')).status, 200);
});

t.run();
