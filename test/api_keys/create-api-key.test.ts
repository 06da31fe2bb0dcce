import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount, makeOwner, makeUser } from '../helpers/fixtures.js';
import { addMember } from '../auth/team.js';

const t = suite('POST /api_keys');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

async function create(token: string, body: Record<string, unknown>) {
  return app.request('POST', '/api_keys', { token, body });
}

function badRequest(res: { status: number; body: any }, param: string) {
  assert.is(res.status, 400, JSON.stringify(res.body));
  assert.is(res.body.error.type, 'invalid_request');
  assert.is(res.body.error.param, param);
}

t('creates a role key: 201, the secret once, the latest version pinned, and the secret works', async () => {
  const o = await makeOwner(app.db);
  const res = await create(o.token, { account_id: o.accountId, name: 'Reporting', role: 'viewer' });
  assert.is(res.status, 201);
  const key = res.body;
  assert.match(key.id, /^apik_[A-Za-z0-9]+$/);
  assert.is(key.account_id, o.accountId);
  assert.is(key.name, 'Reporting');
  assert.match(key.secret, /^sk_[A-Za-z0-9]{40}$/);
  assert.is(key.secret_hint, `${key.secret.slice(0, 7)}…${key.secret.slice(-4)}`);
  assert.equal(key.permissions, { role: 'viewer', statements: [] });
  assert.equal(key.ip_allowlist, []);
  assert.is(key.expires_at, null);
  assert.is(key.api_version_date, '2026-09-06');
  assert.is(key.last_used_at, null);
  assert.is(key.rotated_at, null);
  assert.is(key.revoked_at, null);
  assert.is(key.status, 'active');
  assert.ok(Date.parse(key.created_at) > 0);

  const used = await app.request('GET', `/accounts/${o.accountId}`, { token: key.secret });
  assert.is(used.status, 200);
  assert.is(used.headers.get('api-version-date'), '2026-09-06');
  const stored = await app.db('api_keys').where({ id: key.id }).first();
  assert.is.not(stored.secret_hash, key.secret);
  assert.is(stored.created_by_user_id, o.owner.id);
});

t('creates a statements key with every setting', async () => {
  const o = await makeOwner(app.db);
  const expires = new Date(Date.now() + 86_400_000).toISOString();
  const statements = [{ effect: 'allow', actions: ['company:basic:read', 'plan:*'] }, { effect: 'deny', actions: ['plan:update'] }];
  const res = await create(o.token, {
    account_id: o.accountId, name: 'Catalogue sync', statements, ip_allowlist: ['127.0.0.1', '2001:db8::/32', '10.0.0.0/8'],
    expires_at: expires, api_version_date: '2025-01-01',
  });
  assert.is(res.status, 201);
  assert.equal(res.body.permissions, { role: null, statements });
  assert.equal(res.body.ip_allowlist, ['127.0.0.1', '2001:db8::/32', '10.0.0.0/8']);
  assert.is(res.body.expires_at, expires);
  assert.is(res.body.api_version_date, '2025-01-01');
  const used = await app.request('GET', `/accounts/${o.accountId}`, { token: res.body.secret });
  assert.is(used.status, 200);
  assert.is(used.headers.get('api-version-date'), '2025-01-01');
});

t('records api_key.created without the secret', async () => {
  const o = await makeOwner(app.db);
  const res = await create(o.token, { account_id: o.accountId, name: 'Evented', role: 'viewer' });
  const events = await app.db('events').where({ type: 'api_key.created', account_id: o.accountId });
  assert.is(events.length, 1);
  assert.is(events[0].data.id, res.body.id);
  assert.is(events[0].data.secret, null);
  assert.not.match(JSON.stringify(events[0].data), res.body.secret);
});

t('neither role nor statements is a 400; both is a 400', async () => {
  const o = await makeOwner(app.db);
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k' }), 'role');
  badRequest(await create(o.token, {
    account_id: o.accountId, name: 'k', role: 'viewer', statements: [{ effect: 'allow', actions: ['stats:read'] }],
  }), 'statements');
});

t('role must be a system role', async () => {
  const o = await makeOwner(app.db);
  const res = await create(o.token, { account_id: o.accountId, name: 'k', role: 'superuser' });
  badRequest(res, 'role');
  assert.match(res.body.error.message, /owner, admin, moderator, sales_manager, viewer/);
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', role: 'custom' }), 'role');
});

t('statement actions must be known scopes or wildcards', async () => {
  const o = await makeOwner(app.db);
  const unknown = await create(o.token, {
    account_id: o.accountId, name: 'k', statements: [{ effect: 'allow', actions: ['stats:read'] }, { effect: 'allow', actions: ['plan:create', 'plan:destroy'] }],
  });
  badRequest(unknown, 'statements.1.actions.1');
  assert.match(unknown.body.error.message, /plan:destroy/);
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', statements: [{ effect: 'allow', actions: ['nothing:*'] }] }),
    'statements.0.actions.0');
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', statements: [] }), 'statements');
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', statements: [{ effect: 'allow', actions: [] }] }),
    'statements.0.actions');
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', statements: [{ effect: 'maybe', actions: ['stats:read'] }] }),
    'statements.0.effect');
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', statements: [{ actions: ['stats:read'] }] }),
    'statements.0.effect');
  const wildcards = await create(o.token, {
    account_id: o.accountId, name: 'k', statements: [{ effect: 'allow', actions: ['*'] }, { effect: 'deny', actions: ['company:preferences:*'] }],
  });
  assert.is(wildcards.status, 201);
});

t('expires_at must be in the future', async () => {
  const o = await makeOwner(app.db);
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', role: 'viewer', expires_at: '2020-01-01T00:00:00Z' }), 'expires_at');
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', role: 'viewer', expires_at: 'tomorrow' }), 'expires_at');
});

t('every ip_allowlist entry must be an IP address or CIDR range', async () => {
  const o = await makeOwner(app.db);
  for (const [list, param] of [
    [['127.0.0.1', '300.1.1.1'], 'ip_allowlist.1'],
    [['10.0.0.0/33'], 'ip_allowlist.0'],
    [['192.168.0.0/16', '::1', 'example.com'], 'ip_allowlist.2'],
    [['10.0.0.0/'], 'ip_allowlist.0'],
    [['10.0.0.0/8/8'], 'ip_allowlist.0'],
    [['2001:db8::/129'], 'ip_allowlist.0'],
    [[' 127.0.0.1'], 'ip_allowlist.0'],
  ] as const) {
    const res = await create(o.token, { account_id: o.accountId, name: 'k', role: 'viewer', ip_allowlist: list });
    badRequest(res, param);
  }
});

t('api_version_date must be a valid version date; between versions it pins the earlier one', async () => {
  const o = await makeOwner(app.db);
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', role: 'viewer', api_version_date: 'yesterday' }), 'api_version_date');
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', role: 'viewer', api_version_date: '2026-13-01' }), 'api_version_date');
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', role: 'viewer', api_version_date: '2024-12-31' }), 'api_version_date');
  const between = await create(o.token, { account_id: o.accountId, name: 'k', role: 'viewer', api_version_date: '2026-10-01' });
  assert.is(between.status, 201);
  assert.is(between.body.api_version_date, '2026-09-06');
  const suffixed = await create(o.token, { account_id: o.accountId, name: 'k', role: 'viewer', api_version_date: '2026-09-06.2' });
  assert.is(suffixed.body.api_version_date, '2026-09-06');
});

t('shape errors name the parameter', async () => {
  const o = await makeOwner(app.db);
  badRequest(await create(o.token, { name: 'k', role: 'viewer' }), 'account_id');
  badRequest(await create(o.token, { account_id: o.accountId, role: 'viewer' }), 'name');
  badRequest(await create(o.token, { account_id: o.accountId, name: '', role: 'viewer' }), 'name');
  badRequest(await create(o.token, { account_id: o.accountId, name: 'k', role: 'viewer', secret: 'sk_mine' }), 'secret');
  badRequest(await create(o.token, { account_id: 'acct_1', name: 'k', role: 'viewer' }), 'account_id');
});

t('an API key cannot manage keys (403)', async () => {
  const o = await makeOwner(app.db);
  const res = await create(o.key, { account_id: o.accountId, name: 'k', role: 'viewer' });
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
  assert.match(res.body.error.message, /cannot be called with an API key/);
});

t('another account is a 404', async () => {
  const o = await makeOwner(app.db);
  const stranger = await makeUser(app.db);
  const res = await create(stranger.token, { account_id: o.accountId, name: 'k', role: 'viewer' });
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
  assert.is(res.body.error.param, 'account_id');
});

t('a team member without api_key:manage gets 403', async () => {
  const o = await makeOwner(app.db);
  const moderator = await addMember(app, o.accountId, 'moderator');
  const res = await create(moderator.token, { account_id: o.accountId, name: 'k', role: 'viewer' });
  assert.is(res.status, 403);
  assert.match(res.body.error.message, /api_key:manage/);
});

t('a key cannot grant more than its creator holds', async () => {
  const o = await makeOwner(app.db);
  const custom = await addMember(app, o.accountId, 'custom', ['api_key:manage', 'company:basic:read', 'plan:basic:read']);
  const admin = await create(custom.token, { account_id: o.accountId, name: 'k', role: 'admin' });
  assert.is(admin.status, 403);
  assert.match(admin.body.error.message, /cannot grant \*/);
  const wider = await create(custom.token, {
    account_id: o.accountId, name: 'k', statements: [{ effect: 'allow', actions: ['company:basic:read', 'plan:*'] }],
  });
  assert.is(wider.status, 403);
  assert.match(wider.body.error.message, /plan:\*/);
  const within = await create(custom.token, {
    account_id: o.accountId, name: 'k',
    statements: [{ effect: 'allow', actions: ['company:basic:read'] }, { effect: 'deny', actions: ['stats:read'] }],
  });
  assert.is(within.status, 201);
  assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: within.body.secret })).status, 200);
});

t('the owner of a parent account may create keys for a connected account', async () => {
  const o = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: o.accountId, title: 'Child shop' });
  const res = await create(o.token, { account_id: child.id, name: 'child key', role: 'admin' });
  assert.is(res.status, 201);
  assert.is(res.body.account_id, child.id);
});

t.run();
