import { headVersion } from '../../runtime/versions.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount, makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { joinTeam } from '../auth/team.js';
import { createProduct, createVariant, expectError, expectStatus, eventTypes, createdInOrder } from './support.js';

const t = suite('products');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('create returns the account object, not account_id, and records product.created', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('POST', '/products', {
    token: o.key,
    body: { account_id: o.accountId, title: 'Pro course', description: 'Video lessons', includes_license: true, metadata: { sku: 'A1', gone: null } },
  });
  const p = expectStatus(res, 201);
  assert.match(p.id, /^prod_/);
  assert.equal(p.account, { id: o.accountId, title: o.account.title, route: o.account.route });
  assert.is(p.account_id, undefined);
  assert.is(p.title, 'Pro course');
  assert.is(p.description, 'Video lessons');
  assert.is(p.visibility, 'visible');
  assert.is(p.includes_license, true);
  assert.equal(p.metadata, { sku: 'A1' });
  assert.match(p.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.equal(await eventTypes(app, o.accountId), ['product.created']);
  const got = await app.request('GET', `/products/${p.id}`, { version: headVersion(), token: o.token });
  assert.equal(expectStatus(got, 200), p);
});

t('create refuses bad input, invisible accounts and missing scopes', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  expectError(await app.request('POST', '/products', { version: headVersion(), token: o.key, body: { account_id: o.accountId } }), 400, 'invalid_request', 'title');
  expectError(await app.request('POST', '/products', { version: headVersion(), token: o.key, body: { title: 'x' } }), 400, 'invalid_request', 'account_id');
  expectError(await app.request('POST', '/products', { version: headVersion(), token: o.key, body: { account_id: o.accountId, title: 'x', visibility: 'secret' } }),
    400, 'invalid_request', 'visibility');
  expectError(await app.request('POST', '/products', { version: headVersion(), token: o.key, body: { account_id: o.accountId, title: 'x', company_id: 'biz_x' } }),
    400, 'invalid_request', 'company_id');
  expectError(await app.request('POST', '/products', { version: headVersion(), token: o.key, body: { account_id: other.accountId, title: 'x' } }), 404, 'not_found', 'account_id');
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  expectError(await app.request('POST', '/products', { version: headVersion(), token: viewer.secret, body: { account_id: o.accountId, title: 'x' } }), 403, 'permission_denied');
  expectError(await app.request('POST', '/products', { version: headVersion(), token: 'sk_nope', body: { account_id: o.accountId, title: 'x' } }), 401, 'authentication_required');
  expectError(await app.request('POST', '/products', { body: { account_id: o.accountId, title: 'x' } }), 401, 'authentication_required');
});

t('list: one account, or every readable account; filters and cursor pages', async () => {
  const o = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: o.accountId });
  const stranger = await makeOwner(app.db);
  const a = await createProduct(app, o.key, o.accountId, { title: 'A' });
  const b = await createProduct(app, o.key, child.id, { title: 'B', visibility: 'hidden' });
  const c = await createProduct(app, o.key, o.accountId, { title: 'C' });
  await createProduct(app, stranger.key, stranger.accountId);
  await createdInOrder(app, 'products', [a.id, b.id, c.id]);

  const all = expectStatus(await app.request('GET', '/products', { version: headVersion(), token: o.key }), 200);
  assert.equal(all.data.map((p: any) => p.id), [c.id, b.id, a.id]);
  const mine = expectStatus(await app.request('GET', '/products', { version: headVersion(), token: o.key, query: { account_id: o.accountId } }), 200);
  assert.equal(mine.data.map((p: any) => p.id), [c.id, a.id]);
  const hidden = expectStatus(await app.request('GET', '/products', { version: headVersion(), token: o.key, query: { visibility: 'hidden' } }), 200);
  assert.equal(hidden.data.map((p: any) => p.id), [b.id]);
  assert.equal(hidden.data[0].account, { id: child.id, title: child.title, route: child.route });

  const p1 = expectStatus(await app.request('GET', '/products', { version: headVersion(), token: o.key, query: { first: 2 } }), 200);
  assert.equal(p1.data.map((p: any) => p.id), [c.id, b.id]);
  assert.is(p1.page_info.has_next_page, true);
  const p2 = expectStatus(await app.request('GET', '/products', { version: headVersion(), token: o.key, query: { first: 2, after: p1.page_info.end_cursor } }), 200);
  assert.equal(p2.data.map((p: any) => p.id), [a.id]);
  assert.is(p2.page_info.has_next_page, false);
  assert.is(p2.page_info.has_previous_page, true);
  const asc = expectStatus(await app.request('GET', '/products', { version: headVersion(), token: o.key, query: { direction: 'asc', first: 1 } }), 200);
  assert.equal(asc.data.map((p: any) => p.id), [a.id]);

  expectError(await app.request('GET', '/products', { version: headVersion(), token: o.key, query: { account_id: stranger.accountId } }), 404, 'not_found', 'account_id');
  expectError(await app.request('GET', '/products', { version: headVersion(), token: o.key, query: { first: 101 } }), 400, 'invalid_request', 'first');
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  expectError(await app.request('GET', '/products', { version: headVersion(), token: viewer.secret }), 403, 'permission_denied');
  expectError(await app.request('GET', '/products', { version: headVersion(), token: viewer.secret, query: { account_id: o.accountId } }), 403, 'permission_denied');
  expectError(await app.request('GET', '/products', {}), 401, 'authentication_required');
  expectError(await app.request('GET', '/products', { version: headVersion(), token: o.key, query: { after: 'garbage' } }), 400, 'invalid_request', 'after');
});

t('a user lists only the accounts where their role grants product:basic:read', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const pa = await createProduct(app, a.key, a.accountId);
  const pb = await createProduct(app, b.key, b.accountId);
  const user = await makeUser(app.db);
  await joinTeam(app, a.token, a.accountId, 'admin', [], user);
  await joinTeam(app, b.token, b.accountId, 'viewer', [], user);
  const res = expectStatus(await app.request('GET', '/products', { version: headVersion(), token: user.token }), 200);
  assert.equal(res.data.map((p: any) => p.id), [pa.id]);
  expectError(await app.request('GET', `/products/${pb.id}`, { version: headVersion(), token: user.token }), 403, 'permission_denied');
  expectError(await app.request('GET', '/products', { version: headVersion(), token: user.token, query: { account_id: b.accountId } }), 403, 'permission_denied');
});

t('retrieve: another account\'s product is a 404, a missing scope a 403', async () => {
  const o = await makeOwner(app.db);
  const stranger = await makeOwner(app.db);
  const p = await createProduct(app, o.key, o.accountId);
  expectError(await app.request('GET', `/products/${p.id}`, { version: headVersion(), token: stranger.key }), 404, 'not_found', 'id');
  expectError(await app.request('GET', '/products/prod_missing', { version: headVersion(), token: o.key }), 404, 'not_found', 'id');
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  expectError(await app.request('GET', `/products/${p.id}`, { version: headVersion(), token: viewer.secret }), 403, 'permission_denied');
  expectError(await app.request('GET', `/products/${p.id}`, {}), 401, 'authentication_required');
});

t('PATCH changes only the fields sent, merges metadata, and emits only on change', async () => {
  const o = await makeOwner(app.db);
  const p = await createProduct(app, o.key, o.accountId, { description: 'd', metadata: { a: '1', b: '2' } });
  const res = await app.request('PATCH', `/products/${p.id}`, { version: headVersion(), token: o.key, body: { title: 'Renamed', metadata: { b: null, c: 3 } } });
  const u = expectStatus(res, 200);
  assert.is(u.title, 'Renamed');
  assert.is(u.description, 'd');
  assert.equal(u.metadata, { a: '1', c: 3 });
  assert.equal(u.account, p.account);
  assert.ok(u.updated_at >= p.updated_at);
  const same = expectStatus(await app.request('PATCH', `/products/${p.id}`, { version: headVersion(), token: o.key, body: { title: 'Renamed' } }), 200);
  assert.equal(same, u);
  assert.equal(await eventTypes(app, o.accountId), ['product.created', 'product.updated']);
  const archived = expectStatus(await app.request('PATCH', `/products/${p.id}`, {
    token: o.key, body: { visibility: 'archived', includes_license: true, description: null },
  }), 200);
  assert.is(archived.visibility, 'archived');
  assert.is(archived.includes_license, true);
  assert.is(archived.description, null);
  expectError(await app.request('PATCH', `/products/${p.id}`, { version: headVersion(), token: o.key, body: { title: '' } }), 400, 'invalid_request', 'title');
  expectError(await app.request('PATCH', `/products/${p.id}`, { version: headVersion(), token: o.key, body: { account_id: o.accountId } }), 400, 'invalid_request', 'account_id');
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  expectError(await app.request('PATCH', `/products/${p.id}`, { version: headVersion(), token: viewer.secret, body: { title: 'x' } }), 403, 'permission_denied');
  const stranger = await makeOwner(app.db);
  expectError(await app.request('PATCH', `/products/${p.id}`, { version: headVersion(), token: stranger.key, body: { title: 'x' } }), 404, 'not_found', 'id');
});

t('DELETE is a soft delete: { id, deleted: true }, then 404 for it and its variants', async () => {
  const o = await makeOwner(app.db);
  const p = await createProduct(app, o.key, o.accountId);
  const v = await createVariant(app, o.key, o.accountId, p.id);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  expectError(await app.request('DELETE', `/products/${p.id}`, { version: headVersion(), token: viewer.secret }), 403, 'permission_denied');
  const res = await app.request('DELETE', `/products/${p.id}`, { version: headVersion(), token: o.key });
  assert.equal(expectStatus(res, 200), { id: p.id, deleted: true });
  const stored = await app.db('products').where({ id: p.id }).first();
  assert.ok(stored.deleted_at, 'the row is kept, marked deleted');
  expectError(await app.request('GET', `/products/${p.id}`, { version: headVersion(), token: o.key }), 404, 'not_found', 'id');
  expectError(await app.request('PATCH', `/products/${p.id}`, { version: headVersion(), token: o.key, body: { title: 'x' } }), 404, 'not_found', 'id');
  expectError(await app.request('DELETE', `/products/${p.id}`, { version: headVersion(), token: o.key }), 404, 'not_found', 'id');
  expectError(await app.request('GET', `/variants/${v.id}`, { version: headVersion(), token: o.key }), 404, 'not_found', 'id');
  const list = expectStatus(await app.request('GET', '/products', { version: headVersion(), token: o.key }), 200);
  assert.equal(list.data, []);
  const variants = expectStatus(await app.request('GET', '/variants', { version: headVersion(), token: o.key }), 200);
  assert.equal(variants.data, []);
  expectError(await app.request('POST', '/variants', {
    token: o.key, body: { account_id: o.accountId, product_id: p.id, plan_type: 'one_time' },
  }), 404, 'not_found', 'product_id');
  assert.equal((await eventTypes(app, o.accountId)).slice(-1), ['product.deleted']);
});

t.run();
