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

t('#46 before native promo codes: company_id, promo_type with one decimal amount_off, stock and uses', async () => {
  const product = await call('POST', '/products', '2026-09-06', { account_id: o.accountId, title: 'Promo product' });
  const variant = await call('POST', '/variants', '2026-09-06', { account_id: o.accountId, product_id: product.body.id, plan_type: 'one_time', initial_price: 5000 });
  const flat = await call('POST', '/promo_codes', '2026-07-20', {
    company_id: o.accountId, code: 'flat5', promo_type: 'flat_amount', amount_off: 5.25, base_currency: 'usd',
    new_users_only: false, promo_duration_months: 1, stock: 3, plan_ids: [variant.body.id],
  });
  assert.is(flat.status, 201, JSON.stringify(flat.body));
  assert.is(flat.body.company_id, o.accountId);
  assert.is(flat.body.promo_type, 'flat_amount');
  assert.is(flat.body.amount_off, 5.25);
  assert.is(flat.body.currency, 'usd');
  assert.is(flat.body.stock, 3);
  assert.is(flat.body.unlimited_stock, false);
  assert.is(flat.body.uses, 0);
  for (const newer of ['account_id', 'percent_off', 'max_redemptions', 'redemptions']) assert.not.ok(newer in flat.body, newer);
  // The head sees what the older request meant, in minor units.
  const head = await call('GET', `/promo_codes/${flat.body.id}`, '2026-09-06');
  assert.equal(head.body.amount_off, { amount: 525, currency: 'usd', decimals: 2, display_decimals: 2 });
  assert.is(head.body.max_redemptions, 3);
  assert.is(head.body.plan_id, variant.body.id);
  const percent = await call('POST', '/promo_codes', '2025-01-01', { company_id: o.accountId, code: 'tenoff', promo_type: 'percentage', amount_off: 12.5, unlimited_stock: true });
  assert.is(percent.status, 201, JSON.stringify(percent.body));
  assert.is(percent.body.amount_off, 12.5);
  assert.is(percent.body.currency, null);
  assert.is(percent.body.unlimited_stock, true);
  assert.is((await call('GET', `/promo_codes/${percent.body.id}`, '2026-08-07')).body.percent_off, 12.5);
  // What the platform cannot honour is refused by name, never ignored.
  const refused = async (body: Record<string, unknown>, param: string) => {
    const res = await call('POST', '/promo_codes', '2026-07-20', { company_id: o.accountId, code: `x${param.length}`, promo_type: 'percentage', amount_off: 10, ...body });
    assert.is(res.status, 400, `${param}: ${JSON.stringify(res.body)}`);
    assert.is(res.body.error.param, param);
  };
  await refused({ new_users_only: true }, 'new_users_only');
  await refused({ promo_duration_months: 6 }, 'promo_duration_months');
  await refused({ promo_type: 'flat_amount', amount_off: 1.001, base_currency: 'usd' }, 'amount_off');
  await refused({ promo_type: 'flat_amount', amount_off: 1 }, 'base_currency');
  await refused({ plan_ids: [variant.body.id, variant.body.id] }, 'plan_ids');
  await refused({ percent_off: 10 }, 'percent_off');
  // Plural list filters filter; the latest refuses them.
  const listed = await call('GET', '/promo_codes', '2026-07-20', undefined, { company_id: o.accountId, 'plan_ids[]': variant.body.id });
  assert.is(listed.status, 200, JSON.stringify(listed.body));
  assert.equal(listed.body.data.map((c: any) => c.id), [flat.body.id]);
  const latest = await call('GET', '/promo_codes', '2026-09-06', undefined, { account_id: o.accountId, 'plan_ids[]': variant.body.id });
  assert.is(latest.status, 400);
  assert.is(latest.body.error.param, 'plan_ids');
  // activate and deactivate replaced the legacy status write: they do not exist before 2026-08-07.
  assert.is((await call('POST', `/promo_codes/${flat.body.id}/deactivate`, '2026-07-30')).status, 404);
  assert.is((await call('POST', `/promo_codes/${flat.body.id}/deactivate`, '2026-08-07')).status, 200);
});

t.run();
