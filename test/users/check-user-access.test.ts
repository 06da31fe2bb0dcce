import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeAccount, makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { joinTeam } from '../auth/team.js';

const t = suite('GET /users/{id}/access/{resource_id}');
let app: TestApp;
/** Requests at the head version: these tests describe the head shape; older shapes are the versioning tests' concern. */
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** Invited by the account's owner through the API and, when active, accepted by the user. */
const member = (owner: { token: string; accountId: string }, user: { id: string; token: string }, status: 'invited' | 'active', role = 'viewer') =>
  joinTeam(app, owner.token, owner.accountId, role, [], user, status);

t('an owner checking themself is admin', async () => {
  const o = await makeOwner(app.db);
  const res = await call('GET', `/users/${o.owner.id}/access/${o.accountId}`, { token: o.token });
  assert.is(res.status, 200);
  assert.equal(res.body, { has_access: true, access_level: 'admin' });
});

t('the account\'s API key sees a stranger as no_access and a team member as admin', async () => {
  const o = await makeOwner(app.db);
  const stranger = await makeUser(app.db);
  const viewer = await makeUser(app.db);
  await member(o, viewer, 'active');
  const none = await call('GET', `/users/${stranger.id}/access/${o.accountId}`, { token: o.key });
  assert.equal(none.body, { has_access: false, access_level: 'no_access' });
  const admin = await call('GET', `/users/${viewer.id}/access/${o.accountId}`, { token: o.key });
  assert.equal(admin.body, { has_access: true, access_level: 'admin' });
});

t('an invitation not yet accepted grants no access', async () => {
  const o = await makeOwner(app.db);
  const invitee = await makeUser(app.db);
  await member(o, invitee, 'invited', 'admin');
  const res = await call('GET', `/users/${invitee.id}/access/${o.accountId}`, { token: o.key });
  assert.equal(res.body, { has_access: false, access_level: 'no_access' });
});

t('a team member of the parent is admin of a connected account, seen through the parent key', async () => {
  const p = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId });
  const res = await call('GET', `/users/${p.owner.id}/access/${child.id}`, { token: p.key });
  assert.is(res.status, 200);
  assert.equal(res.body, { has_access: true, access_level: 'admin' });
});

t('a user may check themself on any existing account', async () => {
  const o = await makeOwner(app.db);
  const u = await makeUser(app.db);
  const res = await call('GET', `/users/${u.id}/access/${o.accountId}`, { token: u.token });
  assert.is(res.status, 200);
  assert.equal(res.body, { has_access: false, access_level: 'no_access' });
});

t('a team member\'s token may check other users on that account', async () => {
  const o = await makeOwner(app.db);
  const other = await makeUser(app.db);
  const res = await call('GET', `/users/${other.id}/access/${o.accountId}`, { token: o.token });
  assert.is(res.status, 200);
  assert.is(res.body.access_level, 'no_access');
});

t('a caller who cannot see the account gets 404 naming resource_id', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const outsider = await makeUser(app.db);
  const byKey = await call('GET', `/users/${b.owner.id}/access/${b.accountId}`, { token: a.key });
  assert.is(byKey.status, 404);
  assert.is(byKey.body.error.type, 'not_found');
  assert.is(byKey.body.error.param, 'resource_id');
  const byToken = await call('GET', `/users/${b.owner.id}/access/${b.accountId}`, { token: outsider.token });
  assert.is(byToken.status, 404);
  assert.is(byToken.body.error.param, 'resource_id');
  const invitedOnly = await makeUser(app.db);
  await member(b, invitedOnly, 'invited', 'admin');
  const byInvitee = await call('GET', `/users/${b.owner.id}/access/${b.accountId}`, { token: invitedOnly.token });
  assert.is(byInvitee.status, 404);
});

t('unknown products and experiences, and ids of no declared kind, are 404', async () => {
  const o = await makeOwner(app.db);
  for (const [id, what] of [['prod_abc123', 'product'], ['exp_abc123', 'experience'], ['foo_abc', 'resource']]) {
    const res = await call('GET', `/users/${o.owner.id}/access/${id}`, { token: o.token });
    assert.is(res.status, 404);
    assert.is(res.body.error.param, 'resource_id');
    assert.is(res.body.error.message, `No such ${what}: '${id}'`);
  }
});

t('an unknown user or account is 404', async () => {
  const o = await makeOwner(app.db);
  const noUser = await call('GET', `/users/user_missing/access/${o.accountId}`, { token: o.key });
  assert.is(noUser.status, 404);
  assert.is(noUser.body.error.param, 'id');
  const noAccount = await call('GET', `/users/${o.owner.id}/access/biz_missing`, { token: o.token });
  assert.is(noAccount.status, 404);
  assert.is(noAccount.body.error.param, 'resource_id');
});

t('401 without credentials; 403 for a key without user:read', async () => {
  const o = await makeOwner(app.db);
  const anon = await call('GET', `/users/${o.owner.id}/access/${o.accountId}`);
  assert.is(anon.status, 401);
  const narrow = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['company:basic:read'] }] });
  const denied = await call('GET', `/users/${o.owner.id}/access/${o.accountId}`, { token: narrow.secret });
  assert.is(denied.status, 403);
  assert.is(denied.body.error.type, 'permission_denied');
});

t.run();
