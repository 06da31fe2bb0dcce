import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount, makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { addMember, joinTeam } from '../auth/team.js';
import { headVersion } from '../../runtime/versions.js';

const t = suite('webhook list, retrieve, update, delete');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/**
 * A subscription made through the API with `key` (one that may manage the account's webhooks). A short pause first
 * keeps each newer than the last by whole milliseconds, so list order never rests on a tie.
 */
async function storeHook(key: string, accountId: string, extra: Record<string, unknown> = {}) {
  await new Promise((resolve) => setTimeout(resolve, 3));
  const res = await app.request('POST', '/webhooks', {
    token: key, version: headVersion(), body: { account_id: accountId, url: 'https://example.com/h', events: ['payment.succeeded'], ...extra },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

function expectError(res: { status: number; body: any }, status: number, type: string, param?: string) {
  assert.is(res.status, status, JSON.stringify(res.body));
  assert.is(res.body.error.type, type);
  if (param !== undefined) assert.is(res.body.error.param, param);
}

t('an API key lists its account\'s and connected accounts\' subscriptions, newest first, without secrets', async () => {
  const o = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: o.accountId });
  const other = await makeOwner(app.db);
  const mine = await storeHook(o.key, o.accountId);
  const childs = await storeHook(o.key, child.id);
  await storeHook(other.key, other.accountId);
  const res = await app.request('GET', '/webhooks', { token: o.key });
  assert.is(res.status, 200);
  assert.equal(res.body.data.map((w: any) => w.id), [childs, mine]);
  assert.ok(res.body.data.every((w: any) => w.secret === null));
  const filtered = await app.request('GET', '/webhooks', { token: o.key, query: { account_id: child.id } });
  assert.equal(filtered.body.data.map((w: any) => w.id), [childs]);
  expectError(await app.request('GET', '/webhooks', { token: o.key, query: { account_id: other.accountId } }), 404, 'not_found', 'account_id');
  expectError(await app.request('GET', '/webhooks', { token: o.key, query: { account_id: 'nope' } }), 400, 'invalid_request', 'account_id');
});

t('a user lists only accounts where they hold webhook:read', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const c = await makeOwner(app.db);
  const aHook = await storeHook(a.key, a.accountId);
  const bHook = await storeHook(b.key, b.accountId);
  await storeHook(c.key, c.accountId);
  const user = await makeUser(app.db);
  await joinTeam(app, a.token, a.accountId, 'moderator', [], user);
  await joinTeam(app, b.token, b.accountId, 'viewer', [], user);
  const res = await app.request('GET', '/webhooks', { token: user.token });
  assert.is(res.status, 200);
  assert.equal(res.body.data.map((w: any) => w.id), [aHook]);
  expectError(await app.request('GET', '/webhooks', { token: user.token, version: '2026-09-06', query: { account_id: b.accountId } }), 403, 'permission_denied');
  expectError(await app.request('GET', '/webhooks', { token: user.token, version: '2026-09-06', query: { account_id: c.accountId } }), 404, 'not_found');
  expectError(await app.request('GET', `/webhooks/${bHook}`, { token: user.token }), 403, 'permission_denied');
  const owner = await app.request('GET', '/webhooks', { token: b.token });
  assert.equal(owner.body.data.map((w: any) => w.id), [bHook]);
});

t('pages with cursors', async () => {
  const o = await makeOwner(app.db);
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push(await storeHook(o.key, o.accountId));
  const page1 = await app.request('GET', '/webhooks', { token: o.key, query: { first: 2 } });
  assert.equal(page1.body.data.map((w: any) => w.id), [ids[2], ids[1]]);
  assert.is(page1.body.page_info.has_next_page, true);
  const page2 = await app.request('GET', '/webhooks', { token: o.key, query: { first: 2, after: page1.body.page_info.end_cursor } });
  assert.equal(page2.body.data.map((w: any) => w.id), [ids[0]]);
  assert.is(page2.body.page_info.has_next_page, false);
  expectError(await app.request('GET', '/webhooks', { token: o.key, query: { first: 101 } }), 400, 'invalid_request', 'first');
});

t('webhook:read is required to list', async () => {
  const o = await makeOwner(app.db);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  expectError(await app.request('GET', '/webhooks', { token: viewer.secret }), 403, 'permission_denied');
  expectError(await app.request('GET', '/webhooks', { token: viewer.secret, query: { account_id: o.accountId } }), 403, 'permission_denied');
});

t('retrieve: the subscription without its secret; foreign and unknown ids are 404', async () => {
  const o = await makeOwner(app.db);
  const created = await app.request('POST', '/webhooks', {
    token: o.key, body: { account_id: o.accountId, url: 'https://example.com/h', events: ['payment.succeeded'], api_version_date: '2026-09-06' },
  });
  const res = await app.request('GET', `/webhooks/${created.body.id}`, { token: o.key });
  assert.is(res.status, 200);
  assert.equal({ ...res.body, secret: created.body.secret }, created.body);
  assert.is(res.body.secret, null);
  const other = await makeOwner(app.db);
  expectError(await app.request('GET', `/webhooks/${created.body.id}`, { token: other.key }), 404, 'not_found', 'id');
  expectError(await app.request('GET', `/webhooks/${created.body.id}`, { token: other.token }), 404, 'not_found', 'id');
  expectError(await app.request('GET', '/webhooks/hook_missing', { token: o.key }), 404, 'not_found', 'id');
  const moderator = await addMember(app, o.accountId, 'moderator');
  assert.is((await app.request('GET', `/webhooks/${created.body.id}`, { token: moderator.token })).status, 200);
});

t('update changes only the fields sent', async () => {
  const o = await makeOwner(app.db);
  const id = await storeHook(o.key, o.accountId, { description: 'Old', api_version_date: '2026-09-06' });
  const before = await app.db('webhooks').where({ id }).first();
  const res = await app.request('PATCH', `/webhooks/${id}`, {
    token: o.token,
    version: '2026-09-06',
    body: { url: 'http://localhost:3000/h', events: ['refund.created', 'refund.created', 'refund.succeeded'], enabled: false },
  });
  assert.is(res.status, 200);
  assert.is(res.body.url, 'http://localhost:3000/h');
  assert.equal(res.body.events, ['refund.created', 'refund.succeeded']);
  assert.is(res.body.enabled, false);
  assert.is(res.body.description, 'Old');
  assert.is(res.body.api_version_date, '2026-09-06');
  assert.is(res.body.secret, null);
  assert.ok(Date.parse(res.body.updated_at) > Date.parse(before.updated_at) - 1);

  const unpin = await app.request('PATCH', `/webhooks/${id}`, {
    token: o.key, body: { api_version_date: null, description: null, include_connected_accounts: true },
  });
  assert.is(unpin.body.api_version_date, null);
  assert.is(unpin.body.description, null);
  assert.is(unpin.body.include_connected_accounts, true);
  assert.is(unpin.body.url, 'http://localhost:3000/h');
  const repin = await app.request('PATCH', `/webhooks/${id}`, { token: o.key, body: { api_version_date: '2025-02-01' } });
  assert.is(repin.body.api_version_date, '2025-01-01');
  const stored = await app.db('webhooks').where({ id }).first();
  assert.is(stored.secret, before.secret);
});

t('update rejects api_version, bad values, foreign ids and callers without webhook:manage', async () => {
  const o = await makeOwner(app.db);
  const id = await storeHook(o.key, o.accountId);
  const patch = (body: unknown, token = o.key, target = id) => app.request('PATCH', `/webhooks/${target}`, { token, body });
  expectError(await patch({ api_version: '2026-09-06' }), 400, 'invalid_request', 'api_version');
  expectError(await patch({ url: 'http://example.com/h' }), 400, 'invalid_request', 'url');
  expectError(await patch({ events: [] }), 400, 'invalid_request', 'events');
  expectError(await patch({ events: ['payment.failed', 'bad'] }), 400, 'invalid_request', 'events.1');
  expectError(await patch({ events: ['payment.failed', 'widget.created'] }), 400, 'invalid_request', 'events.1');
  expectError(await patch({ api_version_date: 'soon' }), 400, 'invalid_request', 'api_version_date');
  expectError(await patch({ enabled: 'yes' }), 400, 'invalid_request', 'enabled');
  expectError(await patch({ account_id: o.accountId }), 400, 'invalid_request', 'account_id');
  expectError(await patch({ secret: 'whsec_x' }), 400, 'invalid_request', 'secret');
  const other = await makeOwner(app.db);
  expectError(await patch({ enabled: false }, other.key), 404, 'not_found', 'id');
  expectError(await patch({ enabled: false }, o.key, 'hook_missing'), 404, 'not_found', 'id');
  const moderatorKey = await makeKey(app.db, { accountId: o.accountId, role: 'moderator' });
  expectError(await patch({ enabled: false }, moderatorKey.secret), 403, 'permission_denied');
  const moderator = await addMember(app, o.accountId, 'moderator');
  expectError(await patch({ enabled: false }, moderator.token), 403, 'permission_denied');
  assert.is((await app.db('webhooks').where({ id }).first()).enabled, true);
});

t('delete returns { id, deleted: true } and the subscription is gone', async () => {
  const o = await makeOwner(app.db);
  const id = await storeHook(o.key, o.accountId);
  const other = await makeOwner(app.db);
  expectError(await app.request('DELETE', `/webhooks/${id}`, { token: other.key }), 404, 'not_found', 'id');
  const moderator = await makeKey(app.db, { accountId: o.accountId, role: 'moderator' });
  expectError(await app.request('DELETE', `/webhooks/${id}`, { token: moderator.secret }), 403, 'permission_denied');
  const res = await app.request('DELETE', `/webhooks/${id}`, { token: o.token, version: '2026-09-06' });
  assert.is(res.status, 200);
  assert.equal(res.body, { id, deleted: true });
  expectError(await app.request('GET', `/webhooks/${id}`, { token: o.key }), 404, 'not_found');
  expectError(await app.request('DELETE', `/webhooks/${id}`, { token: o.key }), 404, 'not_found');
});

t.run();
