import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeAccount, makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { teamMember } from '../auth/team.js';

const t = suite('GET /team_members');
let app: TestApp;
/** Requests at the head version: these tests describe the head shape; older shapes are the versioning tests' concern. */
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** A member invited (and, when active, accepted) through the API now: members made one after another list newest first. */
const member = (accountId: string, role: string, status: 'invited' | 'active', inviter?: string) =>
  teamMember(app, accountId, role, { status, inviter });

t('lists the account\'s members newest first, with every field', async () => {
  const o = await makeOwner(app.db);
  const viewer = await member(o.accountId, 'viewer', 'active');
  const invited = await member(o.accountId, 'admin', 'invited');
  const other = await makeOwner(app.db);
  await member(other.accountId, 'viewer', 'active');

  const res = await call('GET', '/team_members', { token: o.key, query: { account_id: o.accountId } });
  assert.is(res.status, 200);
  assert.equal(res.body.data.map((m: any) => m.id), [invited.id, viewer.id, res.body.data[2].id]);
  const owner = res.body.data[2];
  assert.is(owner.role, 'owner');
  assert.is(owner.status, 'active');
  assert.is(owner.invited_at, null);
  assert.ok(owner.accepted_at);
  assert.equal(owner.user, { id: o.owner.id, username: o.owner.user.username, name: o.owner.user.name });
  assert.equal(Object.keys(owner).sort(),
    ['accepted_at', 'account_id', 'created_at', 'id', 'invited_at', 'permissions', 'role', 'status', 'user']);
  assert.is(res.body.page_info.has_next_page, false);
});

t('filters by role and status', async () => {
  const o = await makeOwner(app.db);
  const a = await member(o.accountId, 'admin', 'active');
  const b = await member(o.accountId, 'admin', 'invited');
  await member(o.accountId, 'viewer', 'invited');
  const admins = await call('GET', '/team_members', { token: o.key, query: { account_id: o.accountId, role: 'admin' } });
  assert.equal(admins.body.data.map((m: any) => m.id), [b.id, a.id]);
  const invitedAdmins = await call('GET', '/team_members', { token: o.key, query: { account_id: o.accountId, role: 'admin', status: 'invited' } });
  assert.equal(invitedAdmins.body.data.map((m: any) => m.id), [b.id]);
  const bad = await call('GET', '/team_members', { token: o.key, query: { account_id: o.accountId, status: 'pending' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'status');
});

t('pages with cursors: default 10, max 50', async () => {
  const o = await makeAccount(app.db);
  const key = await makeKey(app.db, { accountId: o.id, role: 'admin' });
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push((await member(o.id, 'viewer', 'active', key.secret)).id);
  ids.reverse(); // newest first
  const page1 = await call('GET', '/team_members', { token: key.secret, query: { account_id: o.id } });
  assert.equal(page1.body.data.map((m: any) => m.id), ids.slice(0, 10));
  assert.is(page1.body.page_info.has_next_page, true);
  const page2 = await call('GET', '/team_members', { token: key.secret, query: { account_id: o.id, after: page1.body.page_info.end_cursor } });
  assert.equal(page2.body.data.map((m: any) => m.id), ids.slice(10));
  assert.is(page2.body.page_info.has_next_page, false);
  const tooBig = await call('GET', '/team_members', { token: key.secret, query: { account_id: o.id, first: 51 } });
  assert.is(tooBig.status, 400);
  assert.is(tooBig.body.error.param, 'first');
});

t('account_id is required (400); an invisible account is 404; lacking team_member:read is 403', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const missing = await call('GET', '/team_members', { token: a.key });
  assert.is(missing.status, 400);
  assert.is(missing.body.error.param, 'account_id');
  const hidden = await call('GET', '/team_members', { token: a.key, query: { account_id: b.accountId } });
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.param, 'account_id');
  const sales = await member(a.accountId, 'sales_manager', 'active');
  const denied = await call('GET', '/team_members', { token: sales.user.token, query: { account_id: a.accountId } });
  assert.is(denied.status, 403);
  assert.is(denied.body.error.type, 'permission_denied');
  const viewer = await member(a.accountId, 'viewer', 'active');
  const allowed = await call('GET', '/team_members', { token: viewer.user.token, query: { account_id: a.accountId } });
  assert.is(allowed.status, 200);
});

t('a parent account\'s key lists a connected account\'s team; no credentials is 401', async () => {
  const p = await makeOwner(app.db);
  const childOwner = await makeUser(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId, ownerUserId: childOwner.id });
  const res = await call('GET', '/team_members', { token: p.key, query: { account_id: child.id } });
  assert.is(res.status, 200);
  assert.equal(res.body.data.map((m: any) => m.user.id), [childOwner.id]);
  const anon = await call('GET', '/team_members', { query: { account_id: child.id } });
  assert.is(anon.status, 401);
});

t.run();
