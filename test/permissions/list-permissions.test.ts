import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeAccount, makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { joinTeam } from '../auth/team.js';
import { specData } from '../../generated/spec-data.js';

const t = suite('GET /permissions');
let app: TestApp;
/** Requests at the head version: these tests describe the head shape; older shapes are the versioning tests' concern. */
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const grantedOf = (body: any) => Object.fromEntries(body.data.map((p: any) => [p.action, p.granted]));

t('every catalogue scope, trading actions included, all granted to an admin key', async () => {
  const o = await makeOwner(app.db);
  const res = await call('GET', '/permissions', { token: o.key, query: { resource_id: o.accountId } });
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body), ['data']);
  assert.equal(res.body.data.map((p: any) => p.action), [...specData.scopes]);
  const granted = grantedOf(res.body);
  assert.is(granted['crypto_wallet:trade'], true);
  assert.is(granted['crypto_wallet:trade:read'], true);
  assert.ok(res.body.data.every((p: any) => p.granted === true));
  assert.equal(Object.keys(res.body.data[0]).sort(), ['action', 'granted']);
});

t('a key with explicit statements: allows, wildcards and denials', async () => {
  const o = await makeOwner(app.db);
  const key = await makeKey(app.db, {
    accountId: o.accountId,
    statements: [
      { effect: 'allow', actions: ['plan:*', 'crypto_wallet:trade:read', 'stats:read'] },
      { effect: 'deny', actions: ['plan:create'] },
    ],
  });
  const res = await call('GET', '/permissions', { token: key.secret, query: { resource_id: o.accountId } });
  const granted = grantedOf(res.body);
  assert.is(granted['plan:basic:read'], true);
  assert.is(granted['plan:update'], true);
  assert.is(granted['plan:create'], false);
  assert.is(granted['stats:read'], true);
  assert.is(granted['crypto_wallet:trade:read'], true);
  assert.is(granted['crypto_wallet:trade'], false);
  assert.is(granted['company:update'], false);
});

t('a user token gets its role\'s scopes, on the account and its connected accounts', async () => {
  const o = await makeOwner(app.db);
  const viewer = await makeUser(app.db);
  await joinTeam(app, o.token, o.accountId, 'viewer', [], viewer);
  const child = await makeAccount(app.db, { parentId: o.accountId });
  for (const resource_id of [o.accountId, child.id]) {
    const res = await call('GET', '/permissions', { token: viewer.token, query: { resource_id } });
    assert.is(res.status, 200);
    const granted = grantedOf(res.body);
    const expected = new Set<string>(specData.roles.viewer);
    for (const scope of specData.scopes) assert.is(granted[scope], expected.has(scope), scope);
  }
});

t('a custom role grants exactly its permissions', async () => {
  const o = await makeOwner(app.db);
  const u = await makeUser(app.db);
  await joinTeam(app, o.token, o.accountId, 'custom', ['crypto_wallet:trade'], u);
  const res = await call('GET', '/permissions', { token: u.token, query: { resource_id: o.accountId } });
  const held = res.body.data.filter((p: any) => p.granted).map((p: any) => p.action);
  assert.equal(held, ['crypto_wallet:trade']);
});

t('an account the caller cannot see is 404 naming resource_id', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const stranger = await makeUser(app.db);
  for (const token of [a.key, stranger.token]) {
    const res = await call('GET', '/permissions', { token, query: { resource_id: b.accountId } });
    assert.is(res.status, 404);
    assert.is(res.body.error.type, 'not_found');
    assert.is(res.body.error.param, 'resource_id');
  }
  const missing = await call('GET', '/permissions', { token: a.key, query: { resource_id: 'biz_nothere' } });
  assert.is(missing.status, 404);
});

t('unknown products, experiences and apps are 404', async () => {
  const o = await makeOwner(app.db);
  for (const [id, what] of [['prod_x1', 'product'], ['exp_x1', 'experience'], ['app_x1', 'app']]) {
    const res = await call('GET', '/permissions', { token: o.key, query: { resource_id: id } });
    assert.is(res.status, 404);
    assert.is(res.body.error.message, `No such ${what}: '${id}'`);
    assert.is(res.body.error.param, 'resource_id');
  }
});

t('resource_id is required and must be a biz_, prod_, exp_ or app_ id (400); no credentials 401', async () => {
  const o = await makeOwner(app.db);
  for (const query of [{}, { resource_id: 'user_abc' }, { resource_id: 'biz_' }, { resource_id: o.accountId, scope: 'x' }]) {
    const res = await call('GET', '/permissions', { token: o.key, query });
    assert.is(res.status, 400, JSON.stringify(query));
    assert.is(res.body.error.type, 'invalid_request');
    assert.is(res.body.error.param, 'scope' in query ? 'scope' : 'resource_id');
  }
  const anon = await call('GET', '/permissions', { query: { resource_id: o.accountId } });
  assert.is(anon.status, 401);
});

t.run();
