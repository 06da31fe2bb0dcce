import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { addMember } from '../auth/team.js';

const t = suite('API key list, retrieve, update, rotate, revoke');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

function expectError(res: { status: number; body: any }, status: number, type: string, param?: string) {
  assert.is(res.status, status, JSON.stringify(res.body));
  assert.is(res.body.error.type, type);
  if (param !== undefined) assert.is(res.body.error.param, param);
}

const pastIso = () => new Date(Date.now() - 60_000).toISOString();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A key made a few milliseconds after the one before, so list order (created_at, millisecond precision) never rests on a tie. */
const laterKey = async (input: Parameters<typeof makeKey>[1]) => { await sleep(3); return makeKey(app.db, input); };

/** Expires a key as time does: PATCH moves expires_at a moment ahead, then the moment passes. */
async function expire(ownerToken: string, keyId: string) {
  const res = await app.request('PATCH', `/api_keys/${keyId}`, { token: ownerToken, body: { expires_at: new Date(Date.now() + 300).toISOString() } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  await sleep(Date.parse(res.body.expires_at) - Date.now() + 20);
}

t('lists an account\'s keys newest first, without secrets, with cursor pages', async () => {
  const o = await makeOwner(app.db);
  const extra = [];
  for (const name of ['b', 'c', 'd']) extra.push(await laterKey({ accountId: o.accountId, name, role: 'viewer' }));
  const all = await app.request('GET', '/api_keys', { token: o.token, query: { account_id: o.accountId } });
  assert.is(all.status, 200);
  assert.equal(all.body.data.map((k: any) => k.id), [extra[2].id, extra[1].id, extra[0].id, o.keyId]);
  assert.ok(all.body.data.every((k: any) => k.secret === null && k.secret_hint.startsWith('sk_')));

  const page1 = await app.request('GET', '/api_keys', { token: o.token, query: { account_id: o.accountId, first: 3 } });
  assert.is(page1.body.data.length, 3);
  assert.is(page1.body.page_info.has_next_page, true);
  const page2 = await app.request('GET', '/api_keys', {
    token: o.token, query: { account_id: o.accountId, first: 3, after: page1.body.page_info.end_cursor },
  });
  assert.equal(page2.body.data.map((k: any) => k.id), [o.keyId]);
  assert.is(page2.body.page_info.has_next_page, false);
});

t('filters by computed status', async () => {
  const o = await makeOwner(app.db);
  const revoked = await laterKey({ accountId: o.accountId, role: 'viewer' });
  assert.is((await app.request('POST', `/api_keys/${revoked.id}/revoke`, { token: o.token })).status, 200);
  const expired = await laterKey({ accountId: o.accountId, role: 'viewer' });
  await expire(o.token, expired.id);
  const later = await laterKey({ accountId: o.accountId, role: 'viewer', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
  const ids = async (status: string) =>
    (await app.request('GET', '/api_keys', { token: o.token, query: { account_id: o.accountId, status } })).body.data.map((k: any) => k.id);
  assert.equal(await ids('active'), [later.id, o.keyId]);
  assert.equal(await ids('revoked'), [revoked.id]);
  assert.equal(await ids('expired'), [expired.id]);
  const one = await app.request('GET', `/api_keys/${expired.id}`, { token: o.token });
  assert.is(one.body.status, 'expired');
  expectError(await app.request('GET', '/api_keys', { token: o.token, query: { account_id: o.accountId, status: 'paused' } }),
    400, 'invalid_request', 'status');
});

t('list needs account_id, a visible account and api_key:read', async () => {
  const o = await makeOwner(app.db);
  expectError(await app.request('GET', '/api_keys', { token: o.token }), 400, 'invalid_request', 'account_id');
  const other = await makeOwner(app.db);
  expectError(await app.request('GET', '/api_keys', { token: o.token, query: { account_id: other.accountId } }), 404, 'not_found', 'account_id');
  const viewer = await addMember(app, o.accountId, 'viewer');
  expectError(await app.request('GET', '/api_keys', { token: viewer.token, query: { account_id: o.accountId } }), 403, 'permission_denied');
  expectError(await app.request('GET', '/api_keys', { token: o.key, query: { account_id: o.accountId } }), 403, 'permission_denied');
  const reader = await addMember(app, o.accountId, 'custom', ['api_key:read']);
  assert.is((await app.request('GET', '/api_keys', { token: reader.token, query: { account_id: o.accountId } })).status, 200);
});

t('retrieve returns the key without its secret; unknown and foreign keys are 404; a viewer gets 403', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('GET', `/api_keys/${o.keyId}`, { token: o.token });
  assert.is(res.status, 200);
  assert.is(res.body.id, o.keyId);
  assert.is(res.body.secret, null);
  assert.equal(res.body.permissions, { role: 'admin', statements: [] });
  expectError(await app.request('GET', '/api_keys/apik_doesnotexist', { token: o.token }), 404, 'not_found', 'id');
  const stranger = await makeUser(app.db);
  expectError(await app.request('GET', `/api_keys/${o.keyId}`, { token: stranger.token }), 404, 'not_found', 'id');
  const viewer = await addMember(app, o.accountId, 'viewer');
  expectError(await app.request('GET', `/api_keys/${o.keyId}`, { token: viewer.token }), 403, 'permission_denied');
  expectError(await app.request('GET', `/api_keys/${o.keyId}`, { token: o.key }), 403, 'permission_denied');
});

t('update changes only the fields sent', async () => {
  const o = await makeOwner(app.db);
  const key = await makeKey(app.db, { accountId: o.accountId, role: 'viewer', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
  const res = await app.request('PATCH', `/api_keys/${key.id}`, {
    token: o.token, body: { name: 'Renamed', ip_allowlist: ['127.0.0.1/32'], expires_at: null, api_version_date: '2025-03-01' },
  });
  assert.is(res.status, 200);
  assert.is(res.body.name, 'Renamed');
  assert.equal(res.body.ip_allowlist, ['127.0.0.1/32']);
  assert.is(res.body.expires_at, null);
  assert.is(res.body.api_version_date, '2025-01-01');
  assert.is(res.body.secret, null);
  assert.equal(res.body.permissions, { role: 'viewer', statements: [] });
  const used = await app.request('GET', `/accounts/${o.accountId}`, { token: key.secret });
  assert.is(used.status, 200);
  assert.is(used.headers.get('api-version-date'), '2025-01-01');

  const nameOnly = await app.request('PATCH', `/api_keys/${key.id}`, { token: o.token, body: { name: 'Again' } });
  assert.equal(nameOnly.body.ip_allowlist, ['127.0.0.1/32']);
  assert.is(nameOnly.body.api_version_date, '2025-01-01');

  const locked = await app.request('PATCH', `/api_keys/${key.id}`, { token: o.token, body: { ip_allowlist: ['10.0.0.0/8'] } });
  assert.is(locked.status, 200);
  assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: key.secret })).status, 401);
});

t('an expired key comes back to life when expires_at moves into the future', async () => {
  const o = await makeOwner(app.db);
  await expire(o.token, o.keyId);
  assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: o.key })).status, 401);
  const later = new Date(Date.now() + 3_600_000).toISOString();
  const res = await app.request('PATCH', `/api_keys/${o.keyId}`, { token: o.token, body: { expires_at: later } });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'active');
  assert.is(res.body.expires_at, later);
  assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: o.key })).status, 200);
});

t('update rejects bad values, policy changes, revoked keys and callers without api_key:manage', async () => {
  const o = await makeOwner(app.db);
  const patch = (body: unknown, token = o.token, id = o.keyId) => app.request('PATCH', `/api_keys/${id}`, { token, body });
  expectError(await patch({ ip_allowlist: ['nope'] }), 400, 'invalid_request', 'ip_allowlist.0');
  expectError(await patch({ expires_at: pastIso() }), 400, 'invalid_request', 'expires_at');
  expectError(await patch({ api_version_date: '2024-06-01' }), 400, 'invalid_request', 'api_version_date');
  expectError(await patch({ role: 'viewer' }), 400, 'invalid_request', 'role');
  expectError(await patch({ name: '' }), 400, 'invalid_request', 'name');
  const moderator = await addMember(app, o.accountId, 'moderator');
  expectError(await patch({ name: 'x' }, moderator.token), 403, 'permission_denied');
  expectError(await patch({ name: 'x' }, o.key), 403, 'permission_denied');
  expectError(await patch({ name: 'x' }, o.token, 'apik_missing'), 404, 'not_found', 'id');
  await app.request('POST', `/api_keys/${o.keyId}/revoke`, { token: o.token });
  expectError(await patch({ name: 'x' }), 409, 'conflict');
});

t('rotate returns a new secret once; the old one stops working immediately', async () => {
  const o = await makeOwner(app.db);
  const before = await app.db('api_keys').where({ id: o.keyId }).first();
  const res = await app.request('POST', `/api_keys/${o.keyId}/rotate`, { token: o.token });
  assert.is(res.status, 200);
  assert.match(res.body.secret, /^sk_[A-Za-z0-9]{40}$/);
  assert.is.not(res.body.secret, o.key);
  assert.is(res.body.secret_hint, `${res.body.secret.slice(0, 7)}…${res.body.secret.slice(-4)}`);
  assert.is.not(res.body.secret_hint, before.secret_hint);
  assert.ok(Date.parse(res.body.rotated_at) > 0);
  assert.equal(res.body.permissions, { role: 'admin', statements: [] });
  assert.is(res.body.api_version_date, '2026-09-06');

  const old = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key });
  expectError(old, 401, 'authentication_required');
  assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: res.body.secret })).status, 200);
  assert.is((await app.request('GET', `/api_keys/${o.keyId}`, { token: o.token })).body.secret, null);

  const events = await app.db('events').where({ type: 'api_key.rotated', account_id: o.accountId });
  assert.is(events.length, 1);
  assert.is(events[0].data.id, o.keyId);
  assert.is(events[0].data.secret, null);
});

t('rotate: revoked is 409, foreign is 404, API keys and moderators are 403', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  expectError(await app.request('POST', `/api_keys/${other.keyId}/rotate`, { token: o.token }), 404, 'not_found', 'id');
  expectError(await app.request('POST', `/api_keys/${o.keyId}/rotate`, { token: o.key }), 403, 'permission_denied');
  const moderator = await addMember(app, o.accountId, 'moderator');
  expectError(await app.request('POST', `/api_keys/${o.keyId}/rotate`, { token: moderator.token }), 403, 'permission_denied');
  expectError(await app.request('POST', `/api_keys/${o.keyId}/rotate`, { token: o.token, body: { secret: 'x' } }), 400, 'invalid_request', 'secret');
  await app.request('POST', `/api_keys/${o.keyId}/revoke`, { token: o.token });
  expectError(await app.request('POST', `/api_keys/${o.keyId}/rotate`, { token: o.token }), 409, 'conflict');
});

t('revoke sets revoked_at, refuses the key with 401, and is idempotent', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('POST', `/api_keys/${o.keyId}/revoke`, { token: o.token });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'revoked');
  assert.ok(Date.parse(res.body.revoked_at) > 0);
  assert.is(res.body.secret, null);
  const refused = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key });
  expectError(refused, 401, 'authentication_required');
  assert.match(refused.body.error.message, /has been revoked/);

  const again = await app.request('POST', `/api_keys/${o.keyId}/revoke`, { token: o.token });
  assert.is(again.status, 200);
  assert.is(again.body.revoked_at, res.body.revoked_at);
  const events = await app.db('events').where({ type: 'api_key.revoked', account_id: o.accountId });
  assert.is(events.length, 1);
  assert.is(events[0].data.revoked_at, res.body.revoked_at);
});

t('revoke: foreign is 404, API keys and moderators are 403', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  expectError(await app.request('POST', `/api_keys/${other.keyId}/revoke`, { token: o.token }), 404, 'not_found', 'id');
  expectError(await app.request('POST', `/api_keys/${o.keyId}/revoke`, { token: o.key }), 403, 'permission_denied');
  const moderator = await addMember(app, o.accountId, 'moderator');
  expectError(await app.request('POST', `/api_keys/${o.keyId}/revoke`, { token: moderator.token }), 403, 'permission_denied');
  assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: o.key })).status, 200);
});

t.run();
