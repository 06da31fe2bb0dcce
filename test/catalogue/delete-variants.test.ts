// DELETE /variants/{id} and the deprecated DELETE /plans/{id}: a soft delete that stops sales, keeps memberships.
import { headVersion } from '../../runtime/versions.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { createProduct, createVariant, expectError, expectStatus, eventTypes } from './support.js';
import { makeSeller, makeToken, pay } from '../payments/payment-fixtures.js';

const t = suite('variants: delete');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const at = headVersion();

async function shop() {
  const o = await makeSeller(app.db);
  const product = await createProduct(app, o.key, o.accountId);
  return { ...o, product };
}

t('DELETE /variants/{id}: { id, deleted: true }, then a 404 everywhere, out of lists, plan.deleted with the variant', async () => {
  const s = await shop();
  const v = await createVariant(app, s.key, s.accountId, s.product.id, { title: 'Gone soon' });
  const kept = await createVariant(app, s.key, s.accountId, s.product.id);
  const res = await app.request('DELETE', `/variants/${v.id}`, { version: at, token: s.key });
  assert.equal(expectStatus(res, 200), { id: v.id, deleted: true });
  assert.is(res.headers.get('deprecation'), null);
  expectError(await app.request('GET', `/variants/${v.id}`, { version: at, token: s.key }), 404, 'not_found', 'id');
  expectError(await app.request('PATCH', `/variants/${v.id}`, { version: at, token: s.key, body: { title: 'x' } }), 404, 'not_found', 'id');
  expectError(await app.request('DELETE', `/variants/${v.id}`, { version: at, token: s.key }), 404, 'not_found', 'id');
  const listed = await app.request('GET', '/variants', { version: at, token: s.key, query: { product_id: s.product.id } });
  assert.equal(expectStatus(listed, 200).data.map((x: any) => x.id), [kept.id]);
  assert.ok((await eventTypes(app, s.accountId)).includes('plan.deleted'));
  const event = await app.db('events').where({ account_id: s.accountId, type: 'plan.deleted' }).first();
  assert.is(event.data.id, v.id);
  assert.is(event.data.title, 'Gone soon');
  const row = await app.db('plans').where({ id: v.id }).first();
  assert.ok(row.deleted_at, 'a soft delete: the row stays for the payments and memberships that name it');
});

t('a deleted variant can no longer be bought, sold through a new checkout configuration or given a promo code', async () => {
  const s = await shop();
  const v = await createVariant(app, s.key, s.accountId, s.product.id);
  expectStatus(await app.request('DELETE', `/variants/${v.id}`, { version: at, token: s.key }), 200);
  const ctok = await makeToken(app, s.clientId);
  const buyer = await makeOwner(app.db);
  expectError(await app.request('POST', '/payments', {
    version: at, token: s.key, body: { account_id: s.accountId, plan_id: v.id, confirmation_token: ctok, user_id: buyer.owner.id },
  }), 404, 'not_found', 'plan_id');
  expectError(await app.request('POST', '/checkout_configurations', {
    version: at, token: s.key, body: { account_id: s.accountId, plan_id: v.id },
  }), 404, 'not_found', 'plan_id');
  expectError(await app.request('POST', '/promo_codes', {
    version: at, token: s.key, body: { account_id: s.accountId, code: 'GONE10', percent_off: 10, plan_id: v.id },
  }), 404, 'not_found', 'plan_id');
});

t('memberships already sold keep working: the membership stays, and its holder still renews', async () => {
  const s = await shop();
  const v = await createVariant(app, s.key, s.accountId, s.product.id, {
    plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 700,
  });
  const first = await pay(app, s, { plan_id: v.id });
  const bought = await app.db('payments').where({ id: first.id }).first();
  assert.ok(bought.membership_id);
  expectStatus(await app.request('DELETE', `/variants/${v.id}`, { version: at, token: s.key }), 200);
  const membership = expectStatus(await app.request('GET', `/memberships/${bought.membership_id}`, { version: at, token: s.key }), 200);
  assert.is(membership.status, 'active');
  assert.is(membership.plan_id, v.id);
  const renewal = await pay(app, s, { plan_id: v.id }, { buyerId: first.buyerId });
  const renewed = await app.db('payments').where({ id: renewal.id }).first();
  assert.is(renewed.billing_reason, 'subscription_cycle');
  assert.is(Number(renewed.total), 700);
  assert.is(renewed.membership_id, bought.membership_id);
  // Someone without a membership of it cannot buy it.
  const ctok = await makeToken(app, s.clientId);
  const stranger = await makeOwner(app.db);
  expectError(await app.request('POST', '/payments', {
    version: at, token: s.key, body: { account_id: s.accountId, plan_id: v.id, confirmation_token: ctok, user_id: stranger.owner.id },
  }), 404, 'not_found', 'plan_id');
});

t('a deleted one_time variant is not sold again, even to a buyer who bought it', async () => {
  const s = await shop();
  const v = await createVariant(app, s.key, s.accountId, s.product.id, { initial_price: 400 });
  const first = await pay(app, s, { plan_id: v.id });
  expectStatus(await app.request('DELETE', `/variants/${v.id}`, { version: at, token: s.key }), 200);
  const ctok = await makeToken(app, s.clientId);
  expectError(await app.request('POST', '/payments', {
    version: at, token: s.key, body: { account_id: s.accountId, plan_id: v.id, confirmation_token: ctok, user_id: first.buyerId },
  }), 404, 'not_found', 'plan_id');
});

t('another account\'s variant is a 404; plan:delete is required (403)', async () => {
  const s = await shop();
  const v = await createVariant(app, s.key, s.accountId, s.product.id);
  const other = await makeOwner(app.db);
  expectError(await app.request('DELETE', `/variants/${v.id}`, { version: at, token: other.key }), 404, 'not_found', 'id');
  expectError(await app.request('DELETE', `/plans/${v.id}`, { version: at, token: other.key }), 404, 'not_found', 'id');
  const viewer = await makeKey(app.db, { accountId: s.accountId, role: 'viewer' });
  const refused = await app.request('DELETE', `/variants/${v.id}`, { version: at, token: viewer.secret });
  expectError(refused, 403, 'permission_denied');
  assert.match(refused.body.error.message, /plan:delete/);
  const sales = await makeKey(app.db, { accountId: s.accountId, role: 'sales_manager' });
  expectStatus(await app.request('DELETE', `/variants/${v.id}`, { version: at, token: sales.secret }), 200);
  expectError(await app.request('DELETE', '/variants/plan_doesnotexist', { version: at, token: s.key }), 404, 'not_found', 'id');
});

t('DELETE /plans/{id}: the same operation, deprecated with a successor Link', async () => {
  const s = await shop();
  const v = await createVariant(app, s.key, s.accountId, s.product.id);
  const res = await app.request('DELETE', `/plans/${v.id}`, { version: at, token: s.key });
  assert.equal(expectStatus(res, 200), { id: v.id, deleted: true });
  assert.is(res.headers.get('deprecation'), 'true');
  assert.is(res.headers.get('link'), `</api/v1/variants/${v.id}>; rel="successor-version"`);
  expectError(await app.request('GET', `/plans/${v.id}`, { version: at, token: s.key }), 404, 'not_found', 'id');
  assert.is((await app.db('events').where({ account_id: s.accountId, type: 'plan.deleted' })).length, 1);
});

t('deleting a product\'s variant leaves the product and its other variants', async () => {
  const s = await shop();
  const a = await createVariant(app, s.key, s.accountId, s.product.id);
  const b = await createVariant(app, s.key, s.accountId, s.product.id);
  expectStatus(await app.request('DELETE', `/variants/${a.id}`, { version: at, token: s.key }), 200);
  expectStatus(await app.request('GET', `/products/${s.product.id}`, { version: at, token: s.key }), 200);
  expectStatus(await app.request('GET', `/variants/${b.id}`, { version: at, token: s.key }), 200);
});

t.run();
