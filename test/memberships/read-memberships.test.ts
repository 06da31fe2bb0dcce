// GET /memberships and GET /memberships/{id}: who reads what, filters, paging, license keys.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeAccount, makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeMembership, makePlan, makeProduct } from './fixtures.js';
import { lifecycleApi } from './lifecycle-fixtures.js';
import { makeSeller } from '../payments/payment-fixtures.js';

const t = suite('reading memberships');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

t('retrieve by mem_ id returns every field', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const res = await call('GET', `/memberships/${m.id}`, { token: o.key });
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(), ['account_id', 'cancel_at_period_end', 'canceled_at', 'created_at', 'current_period_end',
    'current_period_start', 'id', 'license_key', 'member_id', 'metadata', 'paused_at', 'plan_id', 'product_id', 'resumes_at', 'status',
    'updated_at', 'user_id']);
  assert.is(res.body.id, m.id);
  assert.is(res.body.status, 'active');
  assert.is(res.body.account_id, o.accountId);
  assert.is(res.body.user_id, buyer.id);
  assert.is(res.body.member_id, m.memberId);
  assert.is(res.body.product_id, m.productId);
  assert.is(res.body.plan_id, m.planId);
  assert.is(res.body.license_key, null);
  assert.is(res.body.cancel_at_period_end, false);
  assert.equal(res.body.metadata, {});
});

t('a product with licensing gives a license key; retrieve by license key finds the same membership', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id, { includesLicense: true });
  assert.match(m.licenseKey!, /^[A-Z2-7]{5}-[A-Z2-7]{5}-[A-Z2-7]{5}-[A-Z2-7]{5}$/);
  const res = await call('GET', `/memberships/${m.licenseKey}`, { token: o.key });
  assert.is(res.status, 200);
  assert.is(res.body.id, m.id);
  assert.is(res.body.license_key, m.licenseKey);
});

t('unknown ids and license keys, and another account\'s membership, are 404 naming id', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, b.accountId, buyer.id, { includesLicense: true });
  for (const id of ['mem_missing', 'AAAAA-BBBBB-CCCCC-DDDDD', m.id, m.licenseKey!]) {
    const res = await call('GET', `/memberships/${id}`, { token: a.key });
    assert.is(res.status, 404, id);
    assert.is(res.body.error.type, 'not_found');
    assert.is(res.body.error.param, 'id');
  }
});

t('the buyer reads their own membership with their token; another user cannot', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const other = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const own = await call('GET', `/memberships/${m.id}`, { token: buyer.token });
  assert.is(own.status, 200);
  assert.is(own.body.id, m.id);
  const stranger = await call('GET', `/memberships/${m.id}`, { token: other.token });
  assert.is(stranger.status, 404);
});

t('a key without member:basic:read gets 403 on retrieve and list', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const narrow = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['company:basic:read'] }] });
  const one = await call('GET', `/memberships/${m.id}`, { token: narrow.secret });
  assert.is(one.status, 403);
  assert.is(one.body.error.type, 'permission_denied');
  const list = await call('GET', '/memberships', { token: narrow.secret });
  assert.is(list.status, 403);
  const anon = await call('GET', '/memberships');
  assert.is(anon.status, 401);
});

t('list: own account plus connected accounts for a key; never other accounts', async () => {
  const p = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId });
  const other = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const mine = await makeMembership(app, p.accountId, buyer.id);
  const childs = await makeMembership(app, child.id, buyer.id);
  await makeMembership(app, other.accountId, buyer.id);
  const res = await call('GET', '/memberships', { token: p.key });
  assert.is(res.status, 200);
  assert.equal(res.body.data.map((m: any) => m.id).sort(), [mine.id, childs.id].sort());
  const narrowed = await call('GET', '/memberships', { token: p.key, query: { account_id: child.id } });
  assert.equal(narrowed.body.data.map((m: any) => m.id), [childs.id]);
  const hidden = await call('GET', '/memberships', { token: p.key, query: { account_id: other.accountId } });
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.param, 'account_id');
});

t('list for a user token: managed accounts plus the user\'s own memberships as a buyer', async () => {
  const o = await makeOwner(app.db);
  const shop = await makeOwner(app.db);
  const customer = await makeUser(app.db);
  const managed = await makeMembership(app, o.accountId, customer.id);
  const ownAsBuyer = await makeMembership(app, shop.accountId, o.owner.id);
  await makeMembership(app, shop.accountId, customer.id);
  const res = await call('GET', '/memberships', { token: o.token });
  assert.is(res.status, 200);
  assert.equal(res.body.data.map((m: any) => m.id).sort(), [managed.id, ownAsBuyer.id].sort());
  // Narrowed to an account the user only buys from: their own memberships there.
  const there = await call('GET', '/memberships', { token: o.token, query: { account_id: shop.accountId } });
  assert.is(there.status, 200);
  assert.equal(there.body.data.map((m: any) => m.id), [ownAsBuyer.id]);
  const buyerOnly = await call('GET', '/memberships', { token: customer.token });
  assert.is(buyerOnly.body.data.length, 2);
  const unknown = await call('GET', '/memberships', { token: customer.token, query: { account_id: 'biz_missing' } });
  assert.is(unknown.status, 404);
});

t('filters user_id, product_id, plan_id and status; invalid status is 400', async () => {
  const lifecycle = lifecycleApi(app);
  const o = await lifecycle.shop(await makeSeller(app.db));
  const u1 = await makeUser(app.db);
  const product = await makeProduct(app, o.accountId);
  const plan = await makePlan(app, o.accountId, product);
  // Its period outlasts the clock's advance below.
  const a = await makeMembership(app, o.accountId, u1.id, { productId: product, planId: plan, periodEnd: new Date(o.t0 + 90 * 86_400_000) });
  const b = await lifecycle.membershipIn(o, 'past_due'); // its renewal failed as time passed
  const ids = async (query: Record<string, string>) =>
    (await call('GET', '/memberships', { token: o.key, query })).body.data.map((m: any) => m.id);
  assert.equal(await ids({ user_id: u1.id }), [a.id]);
  assert.equal(await ids({ product_id: product }), [a.id]);
  assert.equal(await ids({ plan_id: plan }), [a.id]);
  assert.equal(await ids({ status: 'past_due' }), [b.id]);
  assert.equal(await ids({ status: 'canceled' }), []);
  const bad = await call('GET', '/memberships', { token: o.key, query: { status: 'bogus' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'status');
  const unknown = await call('GET', '/memberships', { token: o.key, query: { foo: 'x' } });
  assert.is(unknown.status, 400);
});

t('cursor pages, newest first', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const made: string[] = [];
  for (let i = 0; i < 5; i++) made.push((await makeMembership(app, o.accountId, buyer.id)).id);
  const first = await call('GET', '/memberships', { token: o.key, query: { first: 2 } });
  assert.equal(first.body.data.map((m: any) => m.id), [made[4], made[3]]);
  assert.is(first.body.page_info.has_next_page, true);
  const second = await call('GET', '/memberships', { token: o.key, query: { first: 2, after: first.body.page_info.end_cursor } });
  assert.equal(second.body.data.map((m: any) => m.id), [made[2], made[1]]);
  const third = await call('GET', '/memberships', { token: o.key, query: { first: 2, after: second.body.page_info.end_cursor } });
  assert.equal(third.body.data.map((m: any) => m.id), [made[0]]);
  assert.is(third.body.page_info.has_next_page, false);
});

t('creating a membership records membership.activated with the Membership', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const event = await app.db('events').where({ type: 'membership.activated', account_id: o.accountId }).first();
  assert.is(event.data.id, m.id);
  assert.is(event.data.status, 'active');
});

t.run();
