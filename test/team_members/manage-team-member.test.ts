import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { teamMember } from '../auth/team.js';

const t = suite('GET, PATCH, DELETE /team_members/{id}');
let app: TestApp;
/** Requests at the head version: these tests describe the head shape; older shapes are the versioning tests' concern. */
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** Invited by the owner through the API and, when active, accepted by the user. */
const member = (accountId: string, role: string, status: 'invited' | 'active' = 'active', permissions: string[] = []) =>
  teamMember(app, accountId, role, { status, permissions });
const ownerMemberId = async (accountId: string) =>
  (await app.db('team_members').where({ account_id: accountId, role: 'owner' }).first('id')).id as string;

// --- retrieve

t('retrieve: with team_member:read on the account', async () => {
  const o = await makeOwner(app.db);
  const m = await member(o.accountId, 'viewer');
  const res = await call('GET', `/team_members/${m.id}`, { token: o.key });
  assert.is(res.status, 200);
  assert.is(res.body.id, m.id);
  assert.is(res.body.account_id, o.accountId);
  assert.is(res.body.role, 'viewer');
  assert.is(res.body.user.id, m.user.id);
});

t('retrieve: the invitee reads their own invitation without any access to the account', async () => {
  const o = await makeOwner(app.db);
  const m = await member(o.accountId, 'admin', 'invited');
  const res = await call('GET', `/team_members/${m.id}`, { token: m.user.token });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'invited');
});

t('retrieve: outsiders and unknown ids are 404; visible without the scope 403; 401', async () => {
  const o = await makeOwner(app.db);
  const m = await member(o.accountId, 'viewer');
  const stranger = await makeOwner(app.db);
  const hidden = await call('GET', `/team_members/${m.id}`, { token: stranger.key });
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.param, 'id');
  const unknown = await call('GET', '/team_members/tmem_nothing', { token: o.key });
  assert.is(unknown.status, 404);
  const sales = await member(o.accountId, 'sales_manager');
  const denied = await call('GET', `/team_members/${m.id}`, { token: sales.user.token });
  assert.is(denied.status, 403);
  const statsKey = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['stats:read'] }] });
  const keyDenied = await call('GET', `/team_members/${m.id}`, { token: statsKey.secret });
  assert.is(keyDenied.status, 403);
  const anon = await call('GET', `/team_members/${m.id}`);
  assert.is(anon.status, 401);
});

// --- update

t('update: changes the role, emits team_member.updated', async () => {
  const o = await makeOwner(app.db);
  const m = await member(o.accountId, 'viewer');
  const res = await call('PATCH', `/team_members/${m.id}`, { token: o.token, body: { role: 'moderator' } });
  assert.is(res.status, 200);
  assert.is(res.body.role, 'moderator');
  assert.equal(res.body.permissions, []);
  assert.is((await app.db('team_members').where({ id: m.id }).first()).role, 'moderator');
  const events = await app.db('events').where({ type: 'team_member.updated', account_id: o.accountId });
  assert.is(events.length, 1);
  assert.is(events[0].data.role, 'moderator');
});

t('update: custom permissions are kept, replaced, and dropped when leaving custom', async () => {
  const o = await makeOwner(app.db);
  const m = await member(o.accountId, 'viewer');
  const toCustom = await call('PATCH', `/team_members/${m.id}`, { token: o.key, body: { role: 'custom', permissions: ['stats:read'] } });
  assert.is(toCustom.status, 200);
  assert.equal(toCustom.body.permissions, ['stats:read']);
  const replaced = await call('PATCH', `/team_members/${m.id}`, { token: o.key, body: { permissions: ['payment:basic:read', 'stats:read'] } });
  assert.equal(replaced.body.permissions, ['payment:basic:read', 'stats:read']);
  const same = await call('PATCH', `/team_members/${m.id}`, { token: o.key, body: { role: 'custom' } });
  assert.equal(same.body.permissions, ['payment:basic:read', 'stats:read']);
  const back = await call('PATCH', `/team_members/${m.id}`, { token: o.key, body: { role: 'viewer' } });
  assert.is(back.body.role, 'viewer');
  assert.equal(back.body.permissions, []);
  const unchanged = await call('PATCH', `/team_members/${m.id}`, { token: o.key, body: {} });
  assert.is(unchanged.status, 200);
  assert.is(unchanged.body.role, 'viewer');
  // Each PATCH sending role or permissions records the event (even `same`); the empty one records none.
  const updates = await app.db('events').where({ type: 'team_member.updated', account_id: o.accountId });
  assert.is(updates.length, 4);
});

t('update: role rules are 400 naming the field', async () => {
  const o = await makeOwner(app.db);
  const m = await member(o.accountId, 'viewer');
  for (const [body, param] of [
    [{ role: 'custom' }, 'permissions'],
    [{ permissions: ['stats:read'] }, 'permissions'],
    [{ role: 'custom', permissions: ['bogus'] }, 'permissions'],
    [{ role: 'owner' }, 'role'],
    [{ status: 'active' }, 'status'],
  ] as const) {
    const res = await call('PATCH', `/team_members/${m.id}`, { token: o.key, body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error.param, param, JSON.stringify(body));
  }
  assert.is((await app.db('team_members').where({ id: m.id }).first()).role, 'viewer');
});

t('update: the owner\'s role cannot be changed (400)', async () => {
  const o = await makeOwner(app.db);
  const ownerId = await ownerMemberId(o.accountId);
  const res = await call('PATCH', `/team_members/${ownerId}`, { token: o.key, body: { role: 'viewer' } });
  assert.is(res.status, 400);
  assert.is(res.body.error.type, 'invalid_request');
  assert.is(res.body.error.param, 'role');
  assert.is((await app.db('team_members').where({ id: ownerId }).first()).role, 'owner');
});

t('update: without team_member:manage 403; cannot raise or touch beyond one\'s own scopes 403; hidden 404', async () => {
  const o = await makeOwner(app.db);
  const target = await member(o.accountId, 'viewer');
  const moderator = await member(o.accountId, 'moderator');
  const noManage = await call('PATCH', `/team_members/${target.id}`, { token: moderator.user.token, body: { role: 'sales_manager' } });
  assert.is(noManage.status, 403);
  const manager = await member(o.accountId, 'custom', 'active', ['team_member:manage', 'team_member:read', 'company:basic:read']);
  const raise = await call('PATCH', `/team_members/${target.id}`, { token: manager.user.token, body: { role: 'admin' } });
  assert.is(raise.status, 403);
  assert.is(raise.body.error.type, 'permission_denied');
  const admin = await member(o.accountId, 'admin');
  const demoteAdmin = await call('PATCH', `/team_members/${admin.id}`, {
    token: manager.user.token, body: { role: 'custom', permissions: ['company:basic:read'] },
  });
  assert.is(demoteAdmin.status, 403);
  assert.is((await app.db('team_members').where({ id: admin.id }).first()).role, 'admin');
  const other = await makeOwner(app.db);
  const hidden = await call('PATCH', `/team_members/${target.id}`, { token: other.key, body: { role: 'moderator' } });
  assert.is(hidden.status, 404);
  const unknown = await call('PATCH', '/team_members/tmem_none', { token: o.key, body: { role: 'moderator' } });
  assert.is(unknown.status, 404);
  const anon = await call('PATCH', `/team_members/${target.id}`, { body: { role: 'moderator' } });
  assert.is(anon.status, 401);
});

// --- remove

t('remove: deletes the member, emits team_member.deleted and access ends', async () => {
  const o = await makeOwner(app.db);
  const m = await member(o.accountId, 'viewer');
  const before = await call('GET', `/accounts/${o.accountId}`, { token: m.user.token });
  assert.is(before.status, 200);
  const res = await call('DELETE', `/team_members/${m.id}`, { token: o.token });
  assert.is(res.status, 200);
  assert.equal(res.body, { id: m.id, deleted: true });
  assert.is(await app.db('team_members').where({ id: m.id }).first(), undefined);
  const events = await app.db('events').where({ type: 'team_member.deleted', account_id: o.accountId });
  assert.is(events[0].data.id, m.id);
  assert.is(events[0].data.user.id, m.user.id);
  assert.is(events[0].data.role, 'viewer');
  const after = await call('GET', `/accounts/${o.accountId}`, { token: m.user.token });
  assert.is(after.status, 404);
  const again = await call('DELETE', `/team_members/${m.id}`, { token: o.token });
  assert.is(again.status, 404);
});

t('remove: withdrawing an invitation removes its unread notification', async () => {
  const o = await makeOwner(app.db);
  const u = await makeUser(app.db);
  const invite = await call('POST', '/team_members', { token: o.key, body: { account_id: o.accountId, user_id: u.id, role: 'viewer' } });
  assert.is((await app.db('notifications').where({ user_id: u.id })).length, 1);
  const res = await call('DELETE', `/team_members/${invite.body.id}`, { token: o.key });
  assert.is(res.status, 200);
  assert.is((await app.db('notifications').where({ user_id: u.id })).length, 0);
});

t('remove: a user may leave a team or decline an invitation themself', async () => {
  const o = await makeOwner(app.db);
  const active = await member(o.accountId, 'viewer');
  const invited = await member(o.accountId, 'admin', 'invited');
  const leave = await call('DELETE', `/team_members/${active.id}`, { token: active.user.token });
  assert.is(leave.status, 200);
  const decline = await call('DELETE', `/team_members/${invited.id}`, { token: invited.user.token });
  assert.is(decline.status, 200);
  assert.equal(decline.body, { id: invited.id, deleted: true });
});

t('remove: the owner cannot be removed (400), not even by themself', async () => {
  const o = await makeOwner(app.db);
  const ownerId = await ownerMemberId(o.accountId);
  for (const token of [o.key, o.token]) {
    const res = await call('DELETE', `/team_members/${ownerId}`, { token });
    assert.is(res.status, 400);
    assert.is(res.body.error.type, 'invalid_request');
    assert.is(res.body.error.param, 'id');
  }
  assert.ok(await app.db('team_members').where({ id: ownerId }).first());
});

t('remove: without team_member:manage 403; a member above one\'s own scopes 403; hidden 404; 401', async () => {
  const o = await makeOwner(app.db);
  const target = await member(o.accountId, 'viewer');
  const viewer = await member(o.accountId, 'viewer');
  const denied = await call('DELETE', `/team_members/${target.id}`, { token: viewer.user.token });
  assert.is(denied.status, 403);
  const manager = await member(o.accountId, 'custom', 'active', ['team_member:manage', 'team_member:read']);
  const admin = await member(o.accountId, 'admin');
  const aboveMe = await call('DELETE', `/team_members/${admin.id}`, { token: manager.user.token });
  assert.is(aboveMe.status, 403);
  const lesser = await member(o.accountId, 'custom', 'active', ['team_member:read']);
  const ok = await call('DELETE', `/team_members/${lesser.id}`, { token: manager.user.token });
  assert.is(ok.status, 200);
  const other = await makeOwner(app.db);
  const hidden = await call('DELETE', `/team_members/${target.id}`, { token: other.key });
  assert.is(hidden.status, 404);
  const anon = await call('DELETE', `/team_members/${target.id}`);
  assert.is(anon.status, 401);
  assert.ok(await app.db('team_members').where({ id: target.id }).first());
});

t.run();
