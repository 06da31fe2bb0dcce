// GET /users/{id}/access/{resource_id} with memberships: customers of an account and of a product.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { joinTeam } from '../auth/team.js';
import { makeMembership, makeProduct } from '../memberships/fixtures.js';
import { lifecycleApi } from '../memberships/lifecycle-fixtures.js';
import { makeSeller } from '../payments/payment-fixtures.js';

const t = suite('user access through memberships');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

t('an active membership on the account makes a customer; ending it removes access', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const res = await call('GET', `/users/${buyer.id}/access/${o.accountId}`, { token: o.key });
  assert.is(res.status, 200);
  assert.equal(res.body, { has_access: true, access_level: 'customer' });
  const self = await call('GET', `/users/${buyer.id}/access/${o.accountId}`, { token: buyer.token });
  assert.equal(self.body, { has_access: true, access_level: 'customer' });
  await call('POST', `/memberships/${m.id}/cancel`, { token: o.key });
  const after = await call('GET', `/users/${buyer.id}/access/${o.accountId}`, { token: o.key });
  assert.equal(after.body, { has_access: false, access_level: 'no_access' });
});

t('trialing and past_due grant access; paused, expired and completed do not (each reached by time on a sandbox clock)', async () => {
  const lifecycle = lifecycleApi(app);
  for (const [status, level] of [['trialing', 'customer'], ['past_due', 'customer'], ['paused', 'no_access'], ['expired', 'no_access'], ['completed', 'no_access']] as const) {
    const s = await lifecycle.shop(await makeSeller(app.db));
    const m = await lifecycle.membershipIn(s, status === 'paused' ? 'active' : status);
    if (status === 'paused') await lifecycle.ok(s.key, 'POST', `/memberships/${m.id}/pause`);
    const res = await call('GET', `/users/${m.userId}/access/${s.accountId}`, { token: s.key });
    assert.is(res.body.access_level, level, status);
  }
});

t('a product: customer only with a membership to that product; admin for its account\'s team', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const otherProduct = await makeProduct(app, o.accountId);
  const held = await call('GET', `/users/${buyer.id}/access/${m.productId}`, { token: o.key });
  assert.is(held.status, 200);
  assert.equal(held.body, { has_access: true, access_level: 'customer' });
  const other = await call('GET', `/users/${buyer.id}/access/${otherProduct}`, { token: o.key });
  assert.equal(other.body, { has_access: false, access_level: 'no_access' });
  const admin = await call('GET', `/users/${o.owner.id}/access/${otherProduct}`, { token: o.token });
  assert.equal(admin.body, { has_access: true, access_level: 'admin' });
  const viewer = await makeUser(app.db);
  await joinTeam(app, o.token, o.accountId, 'viewer', [], viewer);
  const team = await call('GET', `/users/${viewer.id}/access/${m.productId}`, { token: o.key });
  assert.is(team.body.access_level, 'admin');
});

t('a product of an account the caller cannot see is 404 naming resource_id; a deleted product is 404', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const product = await makeProduct(app, b.accountId);
  const res = await call('GET', `/users/${b.owner.id}/access/${product}`, { token: a.key });
  assert.is(res.status, 404);
  assert.is(res.body.error.param, 'resource_id');
  assert.is((await call('DELETE', `/products/${product}`, { token: b.key })).status, 200);
  const gone = await call('GET', `/users/${b.owner.id}/access/${product}`, { token: b.key });
  assert.is(gone.status, 404);
  assert.is(gone.body.error.message, `No such product: '${product}'`);
});

t.run();
