// Changelog entry 24 on variants (and the deprecated /plans) and checkout configurations: before 2026-08-25 the
// older value set is taken and frictionless_if_required is shown as null; an older caller's null keeps meaning "no
// policy of its own" (stored null, the account's policy applies).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { renderAt } from '../../runtime/render.js';
import { headVersion } from '../../runtime/versions.js';

const OLDER = '2026-08-21';
const AT_24 = '2026-08-25';

const t = suite('versioning: #24 3-D Secure policies of variants and checkout configurations');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;
let productId: string;
t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db, { title: '3DS shop' });
  const product = await app.request('POST', '/products', { token: o.key, version: headVersion(), body: { account_id: o.accountId, title: 'Course' } });
  assert.is(product.status, 201, JSON.stringify(product.body));
  productId = product.body.id;
});
t.after(async () => { await app.close(); });

const call = (method: string, path: string, version: string, body?: unknown) =>
  app.request(method, path, { token: o.key, version, body });
const variantBody = (extra: Record<string, unknown> = {}) =>
  ({ account_id: o.accountId, product_id: productId, plan_type: 'one_time', initial_price: 1000, ...extra });
const stored = async (table: string, id: string) => (await app.db(table).where({ id }).first()).three_d_secure_policy;

function refused(res: { status: number; body: any }, param: string) {
  assert.is(res.status, 400, JSON.stringify(res.body));
  assert.is(res.body.error.type, 'invalid_request');
  assert.is(res.body.error.param, param);
}

t('older pins: a variant takes the older values in, and the head handler\'s answer comes out in the older shape', async () => {
  for (const path of ['/variants', '/plans']) {
    const made = await call('POST', path, OLDER, variantBody({ three_d_secure_policy: 'mandate_if_required' }));
    assert.is(made.status, 201, JSON.stringify(made.body));
    assert.is(made.body.three_d_secure_policy, 'mandate_if_required');
    assert.is(await stored('plans', made.body.id), 'mandate_if_required');
    // null: no policy of its own, as at head; never turned into frictionless_if_required.
    const cleared = await call('PATCH', `${path}/${made.body.id}`, OLDER, { three_d_secure_policy: null });
    assert.is(cleared.status, 200, JSON.stringify(cleared.body));
    assert.is(cleared.body.three_d_secure_policy, null);
    assert.is(await stored('plans', made.body.id), null);
    refused(await call('POST', path, OLDER, variantBody({ three_d_secure_policy: 'frictionless_if_required' })), 'three_d_secure_policy');
    refused(await call('PATCH', `${path}/${made.body.id}`, OLDER, { three_d_secure_policy: 'frictionless_if_required' }), 'three_d_secure_policy');
  }
});

t('a variant whose policy is frictionless_if_required shows null before 2026-08-25 and the value from it', async () => {
  const made = await call('POST', '/variants', headVersion(), variantBody({ three_d_secure_policy: 'frictionless_if_required' }));
  assert.is(made.status, 201, JSON.stringify(made.body));
  assert.is(made.body.three_d_secure_policy, 'frictionless_if_required');
  const id = made.body.id;
  assert.is((await call('GET', `/variants/${id}`, AT_24)).body.three_d_secure_policy, 'frictionless_if_required');
  assert.is((await call('GET', `/variants/${id}`, OLDER)).body.three_d_secure_policy, null);
  assert.is((await call('GET', `/plans/${id}`, OLDER)).body.three_d_secure_policy, null);
  const listed = await app.request('GET', '/variants', { token: o.key, version: OLDER, query: { product_id: productId } });
  assert.is(listed.body.data.find((v: any) => v.id === id).three_d_secure_policy, null);
  // An older update that does not touch the policy leaves it as it is.
  const renamed = await call('PATCH', `/variants/${id}`, OLDER, { title: 'Renamed' });
  assert.is(renamed.body.three_d_secure_policy, null);
  assert.is(await stored('plans', id), 'frictionless_if_required');
  // The same downgrade renders webhook payloads (plan.* events) at an older subscription pin.
  assert.is((renderAt('Variant', made.body, OLDER) as any).three_d_secure_policy, null);
  assert.is((renderAt('Variant', made.body, headVersion()) as any).three_d_secure_policy, 'frictionless_if_required');
  // The other values pass through unchanged.
  const mandate = await call('PATCH', `/variants/${id}`, headVersion(), { three_d_secure_policy: 'mandate_if_required' });
  assert.is(mandate.body.three_d_secure_policy, 'mandate_if_required');
  assert.is((await call('GET', `/variants/${id}`, OLDER)).body.three_d_secure_policy, 'mandate_if_required');
});

t('the latest version round-trips every value, null included', async () => {
  const made = await call('POST', '/variants', headVersion(), variantBody());
  for (const value of ['frictionless_if_required', 'mandate_if_required', null]) {
    const res = await call('PATCH', `/variants/${made.body.id}`, headVersion(), { three_d_secure_policy: value });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.three_d_secure_policy, value);
    assert.is(await stored('plans', made.body.id), value);
  }
});

t('checkout configurations: older values in (its own and an inline plan\'s), frictionless shown as null', async () => {
  const variant = await call('POST', '/variants', headVersion(), variantBody());
  const old = await call('POST', '/checkout_configurations', OLDER,
    { account_id: o.accountId, plan_id: variant.body.id, three_d_secure_policy: 'mandate_if_required' });
  assert.is(old.status, 201, JSON.stringify(old.body));
  assert.is(old.body.three_d_secure_policy, 'mandate_if_required');
  refused(await call('POST', '/checkout_configurations', OLDER,
    { account_id: o.accountId, plan_id: variant.body.id, three_d_secure_policy: 'frictionless_if_required' }), 'three_d_secure_policy');
  refused(await call('POST', '/checkout_configurations', OLDER, {
    account_id: o.accountId,
    plan: { account_id: o.accountId, product_id: productId, plan_type: 'one_time', three_d_secure_policy: 'frictionless_if_required' },
  }), 'plan.three_d_secure_policy');
  const inline = await call('POST', '/checkout_configurations', OLDER, {
    account_id: o.accountId,
    plan: { account_id: o.accountId, product_id: productId, plan_type: 'one_time', initial_price: 500, three_d_secure_policy: 'mandate_if_required' },
  });
  assert.is(inline.status, 201, JSON.stringify(inline.body));
  assert.is(await stored('plans', inline.body.plan_id), 'mandate_if_required');

  const head = await call('POST', '/checkout_configurations', headVersion(),
    { account_id: o.accountId, plan_id: variant.body.id, three_d_secure_policy: 'frictionless_if_required' });
  assert.is(head.status, 201, JSON.stringify(head.body));
  assert.is(head.body.three_d_secure_policy, 'frictionless_if_required');
  assert.is((await call('GET', `/checkout_configurations/${head.body.id}`, AT_24)).body.three_d_secure_policy, 'frictionless_if_required');
  assert.is((await call('GET', `/checkout_configurations/${head.body.id}`, OLDER)).body.three_d_secure_policy, null);
  const listed = await app.request('GET', '/checkout_configurations', { token: o.key, version: OLDER, query: { plan_id: variant.body.id } });
  assert.is(listed.body.data.find((c: any) => c.id === head.body.id).three_d_secure_policy, null);
  assert.is(await stored('checkout_configurations', head.body.id), 'frictionless_if_required');
});

t.run();
