import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeKey } from '../helpers/fixtures.js';

const t = suite('authentication');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const unauthorized = (res: { status: number; body: any }, message: RegExp) => {
  assert.is(res.status, 401);
  assert.is(res.body.error.type, 'authentication_required');
  assert.match(res.body.error.message, message);
};

t('Bearer API key is accepted', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key });
  assert.is(res.status, 200);
  assert.is(res.body.id, o.accountId);
});

t('Bearer user token is accepted', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('GET', `/accounts/${o.accountId}`, { token: o.token });
  assert.is(res.status, 200);
  assert.is(res.body.id, o.accountId);
});

t('a client id authenticates but may call nothing in api_keys or webhooks (403 with a message)', async () => {
  const o = await makeOwner(app.db);
  const { client_id } = await app.db('accounts').where({ id: o.accountId }).first('client_id');
  for (const [method, path, query] of [
    ['GET', '/webhooks', undefined],
    ['GET', '/api_keys', { account_id: o.accountId }],
  ] as const) {
    const res = await app.request(method, path, { token: client_id, query });
    assert.is(res.status, 403, `${method} ${path}`);
    assert.is(res.body.error.type, 'permission_denied');
    assert.match(res.body.error.message, /client id/);
  }
  const post = await app.request('POST', '/webhooks', {
    token: client_id, body: { account_id: o.accountId, url: 'https://example.com/h', events: ['payment.succeeded'] },
  });
  assert.is(post.status, 403);
  assert.match(post.body.error.message, /cannot be called with a client id/);
});

t('an unknown client id is 401', async () => {
  unauthorized(await app.request('GET', '/webhooks', { token: 'client_doesnotexist' }), /Unknown client id/);
});

t('a missing Authorization header is 401', async () => {
  unauthorized(await app.request('GET', '/webhooks'), /No credentials/);
});

t('an unknown API key is 401', async () => {
  unauthorized(await app.request('GET', '/webhooks', { token: 'sk_nosuchkeyxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' }), /Unknown API key/);
});

t('an unknown user token is 401', async () => {
  unauthorized(await app.request('GET', '/webhooks', { token: 'utok_nosuchtoken' }), /Unknown user token/);
});

t('a bearer credential of no known kind is 401', async () => {
  unauthorized(await app.request('GET', '/webhooks', { headers: { authorization: 'Bearer abc123' } }), /Unknown credential/);
});

t('a revoked key is 401 "has been revoked"', async () => {
  const o = await makeOwner(app.db);
  const revoke = await app.request('POST', `/api_keys/${o.keyId}/revoke`, { token: o.token });
  assert.is(revoke.status, 200);
  unauthorized(await app.request('GET', `/accounts/${o.accountId}`, { token: o.key }), /has been revoked/);
});

t('an expired key is 401', async () => {
  const o = await makeOwner(app.db);
  // Expired as time does it: PATCH moves expires_at a moment ahead, then the moment passes.
  const soon = await app.request('PATCH', `/api_keys/${o.keyId}`, { token: o.token, body: { expires_at: new Date(Date.now() + 300).toISOString() } });
  assert.is(soon.status, 200);
  await new Promise((resolve) => setTimeout(resolve, Date.parse(soon.body.expires_at) - Date.now() + 20));
  unauthorized(await app.request('GET', `/accounts/${o.accountId}`, { token: o.key }), /has expired/);
});

t('a key not yet expired is accepted', async () => {
  const o = await makeOwner(app.db);
  const later = await app.request('PATCH', `/api_keys/${o.keyId}`, { token: o.token, body: { expires_at: new Date(Date.now() + 60_000).toISOString() } });
  assert.is(later.status, 200);
  assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: o.key })).status, 200);
});

t('IP allowlist: a key limited to 10.0.0.0/8 is refused from 127.0.0.1; 127.0.0.1 is allowed', async () => {
  const o = await makeOwner(app.db);
  const far = await makeKey(app.db, { accountId: o.accountId, role: 'admin', ipAllowlist: ['10.0.0.0/8'] });
  unauthorized(await app.request('GET', `/accounts/${o.accountId}`, { token: far.secret }), /may not be used from .*127\.0\.0\.1/);
  const near = await makeKey(app.db, { accountId: o.accountId, role: 'admin', ipAllowlist: ['127.0.0.1'] });
  assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: near.secret })).status, 200);
  const range = await makeKey(app.db, { accountId: o.accountId, role: 'admin', ipAllowlist: ['10.0.0.0/8', '127.0.0.0/24'] });
  assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: range.secret })).status, 200);
});

t('a key whose statements lack company:basic:read gets 403 on GET /accounts/{id}', async () => {
  const o = await makeOwner(app.db);
  const key = await makeKey(app.db, { accountId: o.accountId, role: null, statements: [{ effect: 'allow', actions: ['webhook:read'] }] });
  const res = await app.request('GET', `/accounts/${o.accountId}`, { token: key.secret });
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
  assert.match(res.body.error.message, /company:basic:read/);
  // What it does hold still works.
  assert.is((await app.request('GET', '/webhooks', { token: key.secret })).status, 200);
});

t('a deny statement beats an allow, including a wildcard allow', async () => {
  const o = await makeOwner(app.db);
  const key = await makeKey(app.db, {
    accountId: o.accountId,
    role: null,
    statements: [{ effect: 'allow', actions: ['*'] }, { effect: 'deny', actions: ['company:basic:read'] }],
  });
  const denied = await app.request('GET', `/accounts/${o.accountId}`, { token: key.secret });
  assert.is(denied.status, 403);
  assert.match(denied.body.error.message, /company:basic:read/);
  assert.is((await app.request('GET', '/webhooks', { token: key.secret })).status, 200);

  const wildDeny = await makeKey(app.db, {
    accountId: o.accountId,
    role: null,
    statements: [{ effect: 'allow', actions: ['webhook:read', 'webhook:manage'] }, { effect: 'deny', actions: ['webhook:*'] }],
  });
  assert.is((await app.request('GET', '/webhooks', { token: wildDeny.secret })).status, 403);
});

t('a key inherits its system role\'s scopes', async () => {
  const o = await makeOwner(app.db);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  assert.is((await app.request('GET', `/accounts/${o.accountId}`, { token: viewer.secret })).status, 200);
  const viewerHooks = await app.request('GET', '/webhooks', { token: viewer.secret });
  assert.is(viewerHooks.status, 403);
  assert.match(viewerHooks.body.error.message, /webhook:read/);

  const moderator = await makeKey(app.db, { accountId: o.accountId, role: 'moderator' });
  assert.is((await app.request('GET', '/webhooks', { token: moderator.secret })).status, 200);
  const create = await app.request('POST', '/webhooks', {
    token: moderator.secret, body: { account_id: o.accountId, url: 'https://example.com/h', events: ['payment.succeeded'] },
  });
  assert.is(create.status, 403);
  assert.match(create.body.error.message, /webhook:manage/);

  const admin = await makeKey(app.db, { accountId: o.accountId, role: 'admin' });
  const made = await app.request('POST', '/webhooks', {
    token: admin.secret, body: { account_id: o.accountId, url: 'https://example.com/h', events: ['payment.succeeded'] },
  });
  assert.is(made.status, 201);
});

t.run();
