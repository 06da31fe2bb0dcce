// Experiences: created for an account, attached to its products, read, changed and deleted; and access questions
// (GET /permissions, GET /users/{id}/access/{resource_id}) answered for products and experiences.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeMembership } from '../memberships/fixtures.js';
import { eventsOf } from '../account_preferences/preference-fixtures.js';

const t = suite('experiences');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

async function product(o: { key: string; accountId: string }, title = 'Course') {
  const res = await call('POST', '/products', { token: o.key, body: { account_id: o.accountId, title } });
  assert.is(res.status, 201);
  return res.body.id as string;
}
async function experience(o: { key: string; accountId: string }, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/experiences', { token: o.key, body: { account_id: o.accountId, ...body } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

t('create: defaults, attached to a product at once, event', async () => {
  const o = await makeOwner(app.db);
  const p = await product(o);
  const bare = await experience(o);
  assert.match(bare.id, /^exp_/);
  assert.equal({ ...bare, id: undefined, created_at: undefined, updated_at: undefined }, {
    id: undefined, account_id: o.accountId, name: 'New experience', is_public: false, order: null, app_id: null, app: null, image: null, products: [], created_at: undefined, updated_at: undefined,
  });
  const attached = await experience(o, { name: 'Lessons', product_id: p, is_public: true, order: 'a1' });
  assert.equal(attached.products, [{ id: p, title: 'Course' }]);
  assert.is(attached.is_public, true);
  assert.is(attached.order, 'a1');
  assert.is((await eventsOf(app.db, o.accountId, 'experience.created')).length, 2);
});

t('create refuses another account\'s product (404 naming product_id) and bad input (400), writing nothing', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const theirs = await product(other);
  const res = await call('POST', '/experiences', { token: o.key, body: { account_id: o.accountId, product_id: theirs } });
  assert.is(res.status, 404);
  assert.is(res.body.error.param, 'product_id');
  for (const body of [{ account_id: o.accountId, name: '' }, { account_id: o.accountId, is_public: 'yes' }, { name: 'x' }, { account_id: o.accountId, product_id: 'plan_1' }]) {
    const bad = await call('POST', '/experiences', { token: o.key, body });
    assert.is(bad.status, 400, JSON.stringify(body));
  }
  assert.is((await app.db('experiences').where({ account_id: o.accountId })).length, 0);
  const foreign = await call('POST', '/experiences', { token: o.key, body: { account_id: other.accountId } });
  assert.is(foreign.status, 404);
});

t('attach and detach: idempotent attach, detach of an unattached product is 404, deleted products not shown', async () => {
  const o = await makeOwner(app.db);
  const [p1, p2] = [await product(o, 'One'), await product(o, 'Two')];
  const xp = await experience(o);
  const a1 = await call('POST', `/experiences/${xp.id}/attach`, { token: o.key, body: { product_id: p1 } });
  assert.equal(a1.body.products, [{ id: p1, title: 'One' }]);
  const again = await call('POST', `/experiences/${xp.id}/attach`, { token: o.key, body: { product_id: p1 } });
  assert.equal(again.body.products, [{ id: p1, title: 'One' }]);
  const a2 = await call('POST', `/experiences/${xp.id}/attach`, { token: o.key, body: { product_id: p2 } });
  assert.equal(a2.body.products.map((p: any) => p.id), [p1, p2]);
  assert.is((await eventsOf(app.db, o.accountId, 'experience.updated')).length, 2);
  const d = await call('POST', `/experiences/${xp.id}/detach`, { token: o.key, body: { product_id: p1 } });
  assert.equal(d.body.products.map((p: any) => p.id), [p2]);
  const notAttached = await call('POST', `/experiences/${xp.id}/detach`, { token: o.key, body: { product_id: p1 } });
  assert.is(notAttached.status, 404);
  assert.is(notAttached.body.error.param, 'product_id');
  await call('DELETE', `/products/${p2}`, { token: o.key });
  assert.equal((await call('GET', `/experiences/${xp.id}`, { token: o.key })).body.products, []);
  const other = await makeOwner(app.db);
  const theirs = await product(other);
  const cross = await call('POST', `/experiences/${xp.id}/attach`, { token: o.key, body: { product_id: theirs } });
  assert.is(cross.status, 404);
  assert.is(cross.body.error.param, 'product_id');
});

t('list: newest first, by account, by product, by creation time; pages', async () => {
  const o = await makeOwner(app.db);
  const p = await product(o);
  const first = await experience(o, { name: 'first' });
  const second = await experience(o, { name: 'second', product_id: p });
  const third = await experience(o, { name: 'third' });
  const all = await call('GET', '/experiences', { token: o.key, query: { account_id: o.accountId } });
  assert.equal(all.body.data.map((x: any) => x.id), [third.id, second.id, first.id]);
  const byProduct = await call('GET', '/experiences', { token: o.key, query: { product_id: p } });
  assert.equal(byProduct.body.data.map((x: any) => x.id), [second.id]);
  const before = await call('GET', '/experiences', { token: o.key, query: { created_before: second.created_at } });
  assert.equal(before.body.data.map((x: any) => x.id), [first.id]);
  const page = await call('GET', '/experiences', { token: o.key, query: { first: 2 } });
  assert.is(page.body.data.length, 2);
  assert.is(page.body.page_info.has_next_page, true);
  const next = await call('GET', '/experiences', { token: o.key, query: { first: 2, after: page.body.page_info.end_cursor } });
  assert.equal(next.body.data.map((x: any) => x.id), [first.id]);
  assert.is((await call('GET', '/experiences', { token: o.key, query: { product_id: 'biz_1' } })).status, 400);
});

t('update and delete: only sent fields; order null clears; deleted is 404 and detached', async () => {
  const o = await makeOwner(app.db);
  const p = await product(o);
  const xp = await experience(o, { name: 'Old', order: 'b', product_id: p });
  const up = await call('PATCH', `/experiences/${xp.id}`, { token: o.key, body: { name: 'New', order: null } });
  assert.is(up.status, 200);
  assert.equal([up.body.name, up.body.order, up.body.is_public], ['New', null, false]);
  const pub = await call('PATCH', `/experiences/${xp.id}`, { token: o.key, body: { is_public: true } });
  assert.equal([pub.body.name, pub.body.is_public], ['New', true]);
  // Sending what it already holds writes nothing and records no experience.updated.
  const same = await call('PATCH', `/experiences/${xp.id}`, { token: o.key, body: { name: 'New', is_public: true } });
  assert.equal(same.body, pub.body);
  assert.is((await eventsOf(app.db, o.accountId, 'experience.updated')).length, 2);
  assert.is((await call('PATCH', `/experiences/${xp.id}`, { token: o.key, body: { name: '' } })).body.error.param, 'name');
  assert.is((await call('PATCH', `/experiences/${xp.id}`, { token: o.key, body: { app_id: 'app_1' } })).status, 400);
  const del = await call('DELETE', `/experiences/${xp.id}`, { token: o.key });
  assert.equal(del.body, { id: xp.id, deleted: true });
  assert.is((await call('GET', `/experiences/${xp.id}`, { token: o.key })).status, 404);
  assert.is((await call('DELETE', `/experiences/${xp.id}`, { token: o.key })).status, 404);
  assert.is((await app.db('experience_products').where({ experience_id: xp.id })).length, 0);
  assert.is((await eventsOf(app.db, o.accountId, 'experience.deleted')).length, 1);
});

t('another account\'s experiences are never visible (404); scopes are required (403)', async () => {
  const o = await makeOwner(app.db);
  const xp = await experience(o);
  const other = await makeOwner(app.db);
  for (const [method, path, body] of [['GET', `/experiences/${xp.id}`], ['PATCH', `/experiences/${xp.id}`, { name: 'x' }], ['DELETE', `/experiences/${xp.id}`],
    ['POST', `/experiences/${xp.id}/attach`, { product_id: 'prod_x' }], ['POST', `/experiences/${xp.id}/detach`, { product_id: 'prod_x' }]] as const) {
    assert.is((await call(method, path, { token: other.key, body })).status, 404, `${method} ${path}`);
  }
  assert.equal((await call('GET', '/experiences', { token: other.key })).body.data, []);
  assert.is((await call('GET', '/experiences', { token: other.key, query: { account_id: o.accountId } })).status, 404);
  const reader = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['experience:read'] }] });
  assert.is((await call('GET', `/experiences/${xp.id}`, { token: reader.secret })).status, 200);
  assert.is((await call('PATCH', `/experiences/${xp.id}`, { token: reader.secret, body: { name: 'x' } })).status, 403);
  assert.is((await call('DELETE', `/experiences/${xp.id}`, { token: reader.secret })).status, 403);
  assert.is((await call('POST', '/experiences', { token: reader.secret, body: { account_id: o.accountId } })).status, 403);
  assert.is((await call('GET', `/experiences/${xp.id}`)).status, 401);
});

t('user access on a product and an experience: admin, customer through an attached product, public, no_access', async () => {
  const o = await makeOwner(app.db);
  const p1 = await product(o, 'One');
  const p2 = await product(o, 'Two');
  const xp = await experience(o, { product_id: p1 });
  const buyer = await makeUser(app.db);
  await makeMembership(app, o.accountId, buyer.id, { productId: p2 });
  const check = (token: string, userId: string, id: string) => call('GET', `/users/${userId}/access/${id}`, { token });

  assert.equal((await check(o.key, o.owner.id, p1)).body, { has_access: true, access_level: 'admin' });
  assert.equal((await check(o.key, o.owner.id, xp.id)).body, { has_access: true, access_level: 'admin' });
  assert.equal((await check(o.key, buyer.id, p2)).body, { has_access: true, access_level: 'customer' });
  assert.equal((await check(o.key, buyer.id, p1)).body, { has_access: false, access_level: 'no_access' });
  assert.equal((await check(buyer.token, buyer.id, xp.id)).body, { has_access: false, access_level: 'no_access' });
  await call('POST', `/experiences/${xp.id}/attach`, { token: o.key, body: { product_id: p2 } });
  assert.equal((await check(buyer.token, buyer.id, xp.id)).body, { has_access: true, access_level: 'customer' });
  await call('POST', `/experiences/${xp.id}/detach`, { token: o.key, body: { product_id: p2 } });
  const stranger = await makeUser(app.db);
  assert.equal((await check(o.key, stranger.id, xp.id)).body, { has_access: false, access_level: 'no_access' });
  await call('PATCH', `/experiences/${xp.id}`, { token: o.key, body: { is_public: true } });
  assert.equal((await check(o.key, stranger.id, xp.id)).body, { has_access: true, access_level: 'customer' });

  // Another account's caller cannot ask about them; deleted ones are gone.
  const other = await makeOwner(app.db);
  const hidden = await check(other.key, buyer.id, xp.id);
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.message, `No such experience: '${xp.id}'`);
  assert.is((await check(other.key, buyer.id, p1)).status, 404);
  await call('DELETE', `/experiences/${xp.id}`, { token: o.key });
  assert.is((await check(o.key, buyer.id, xp.id)).status, 404);
});

t('GET /permissions on a product and an experience answers for their account; another account\'s are 404', async () => {
  const o = await makeOwner(app.db);
  const p = await product(o);
  const xp = await experience(o, { product_id: p });
  const narrow = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['experience:read', 'stats:read'] }] });
  for (const resource_id of [o.accountId, p, xp.id]) {
    const res = await call('GET', '/permissions', { token: narrow.secret, query: { resource_id } });
    assert.is(res.status, 200, resource_id);
    const held = res.body.data.filter((x: any) => x.granted).map((x: any) => x.action);
    assert.equal(held, ['stats:read', 'experience:read']);
  }
  const other = await makeOwner(app.db);
  for (const [id, what] of [[p, 'product'], [xp.id, 'experience']]) {
    const res = await call('GET', '/permissions', { token: other.key, query: { resource_id: id } });
    assert.is(res.status, 404);
    assert.is(res.body.error.message, `No such ${what}: '${id}'`);
  }
});

t.run();
