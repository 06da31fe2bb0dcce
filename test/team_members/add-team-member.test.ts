import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { addMember } from '../auth/team.js';

const t = suite('POST /team_members');
let app: TestApp;
/** Requests at the head version: these tests describe the head shape; older shapes are the versioning tests' concern. */
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** Invited by the owner and accepted, through the API. */
const activeMember = (accountId: string, role: string, permissions: string[] = []) => addMember(app, accountId, role, permissions);

t('an owner invites a user by id: invited member, notification and event', async () => {
  const o = await makeOwner(app.db, { title: 'Invite Co' });
  const u = await makeUser(app.db, 'Invitee_One');
  const res = await call('POST', '/team_members', {
    token: o.token, body: { account_id: o.accountId, user_id: u.id, role: 'moderator' },
  });
  assert.is(res.status, 201);
  assert.ok(res.body.id.startsWith('tmem_'));
  assert.is(res.body.account_id, o.accountId);
  assert.equal(res.body.user, { id: u.id, username: 'invitee_one', name: 'Invitee_One' });
  assert.is(res.body.role, 'moderator');
  assert.equal(res.body.permissions, []);
  assert.is(res.body.status, 'invited');
  assert.ok(res.body.invited_at);
  assert.is(res.body.accepted_at, null);

  const stored = await app.db('team_members').where({ id: res.body.id }).first();
  assert.is(stored.invited_by_user_id, o.owner.id);
  const notes = await app.db('notifications').where({ user_id: u.id });
  assert.is(notes.length, 1);
  assert.is(notes[0].type, 'team_invitation');
  assert.is(notes[0].read_at, null);
  assert.equal(notes[0].data, {
    team_member_id: res.body.id, account_id: o.accountId, account_title: 'Invite Co', role: 'moderator', invited_by_user_id: o.owner.id,
  });
  const events = await app.db('events').where({ type: 'team_member.invited', account_id: o.accountId });
  assert.is(events.length, 1);
  assert.equal(events[0].data, res.body);
});

t('by username, with an API key: custom role with its permissions', async () => {
  const o = await makeOwner(app.db);
  const u = await makeUser(app.db, 'by_name');
  const res = await call('POST', '/team_members', {
    token: o.key, body: { account_id: o.accountId, username: 'by_name', role: 'custom', permissions: ['stats:read', 'plan:*', 'stats:read'] },
  });
  assert.is(res.status, 201);
  assert.is(res.body.user.id, u.id);
  assert.is(res.body.role, 'custom');
  assert.equal(res.body.permissions, ['stats:read', 'plan:*']);
  const stored = await app.db('team_members').where({ id: res.body.id }).first();
  assert.is(stored.invited_by_user_id, null);
});

t('a user already on the team, invited or active, is 409', async () => {
  const o = await makeOwner(app.db);
  const u = await makeUser(app.db);
  const first = await call('POST', '/team_members', { token: o.key, body: { account_id: o.accountId, user_id: u.id, role: 'viewer' } });
  assert.is(first.status, 201);
  const again = await call('POST', '/team_members', { token: o.key, body: { account_id: o.accountId, user_id: u.id, role: 'admin' } });
  assert.is(again.status, 409);
  assert.is(again.body.error.type, 'conflict');
  assert.is(again.body.error.param, 'user_id');
  const owner = await call('POST', '/team_members', {
    token: o.key, body: { account_id: o.accountId, username: o.owner.user.username, role: 'viewer' },
  });
  assert.is(owner.status, 409);
  assert.is(owner.body.error.param, 'username');
  assert.is(await app.db('notifications').where({ user_id: u.id }).count('* as n').first().then((r: any) => Number(r.n)), 1);
});

t('role and permission rules are 400 naming the field', async () => {
  const o = await makeOwner(app.db);
  const u = await makeUser(app.db);
  const base = { account_id: o.accountId, user_id: u.id };
  for (const [body, param] of [
    [{ ...base, role: 'owner' }, 'role'],
    [{ ...base, role: 'superuser' }, 'role'],
    [{ ...base, role: 'custom' }, 'permissions'],
    [{ ...base, role: 'custom', permissions: [] }, 'permissions'],
    [{ ...base, role: 'custom', permissions: ['stats:read', 'made:up'] }, 'permissions'],
    [{ ...base, role: 'custom', permissions: ['nothing:*'] }, 'permissions'],
    [{ ...base, role: 'custom', permissions: ['*'] }, 'permissions'],
    [{ ...base, role: 'viewer', permissions: ['stats:read'] }, 'permissions'],
    [{ account_id: o.accountId, role: 'viewer' }, 'user_id'],
    [{ ...base, username: u.user.username, role: 'viewer' }, 'username'],
    [{ user_id: u.id, role: 'viewer' }, 'account_id'],
    [{ ...base }, 'role'],
    [{ ...base, role: 'viewer', status: 'active' }, 'status'],
  ] as const) {
    const res = await call('POST', '/team_members', { token: o.key, body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error.type, 'invalid_request');
    assert.is(res.body.error.param, param, JSON.stringify(body));
  }
  assert.is((await app.db('team_members').where({ user_id: u.id })).length, 0);
});

t('an unknown user is 404 naming user_id or username', async () => {
  const o = await makeOwner(app.db);
  const byId = await call('POST', '/team_members', { token: o.key, body: { account_id: o.accountId, user_id: 'user_nobody', role: 'viewer' } });
  assert.is(byId.status, 404);
  assert.is(byId.body.error.param, 'user_id');
  const byName = await call('POST', '/team_members', { token: o.key, body: { account_id: o.accountId, username: 'no_such_person', role: 'viewer' } });
  assert.is(byName.status, 404);
  assert.is(byName.body.error.param, 'username');
});

t('an account the caller cannot see is 404; without team_member:manage 403', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const u = await makeUser(app.db);
  const hidden = await call('POST', '/team_members', { token: a.key, body: { account_id: b.accountId, user_id: u.id, role: 'viewer' } });
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.param, 'account_id');
  const moderator = await activeMember(a.accountId, 'moderator');
  const denied = await call('POST', '/team_members', { token: moderator.token, body: { account_id: a.accountId, user_id: u.id, role: 'viewer' } });
  assert.is(denied.status, 403);
  assert.is(denied.body.error.type, 'permission_denied');
  const readKey = await makeKey(app.db, { accountId: a.accountId, role: 'viewer' });
  const keyDenied = await call('POST', '/team_members', { token: readKey.secret, body: { account_id: a.accountId, user_id: u.id, role: 'viewer' } });
  assert.is(keyDenied.status, 403);
});

t('nobody grants a scope they do not hold (403)', async () => {
  const o = await makeOwner(app.db);
  const manager = await activeMember(o.accountId, 'custom', ['team_member:manage', 'team_member:read', 'stats:read']);
  const u = await makeUser(app.db);
  const asAdmin = await call('POST', '/team_members', { token: manager.token, body: { account_id: o.accountId, user_id: u.id, role: 'admin' } });
  assert.is(asAdmin.status, 403);
  assert.is(asAdmin.body.error.type, 'permission_denied');
  const beyond = await call('POST', '/team_members', {
    token: manager.token, body: { account_id: o.accountId, user_id: u.id, role: 'custom', permissions: ['stats:read', 'payment:charge'] },
  });
  assert.is(beyond.status, 403);
  const within = await call('POST', '/team_members', {
    token: manager.token, body: { account_id: o.accountId, user_id: u.id, role: 'custom', permissions: ['stats:read'] },
  });
  assert.is(within.status, 201);
  assert.is(within.body.status, 'invited');
});

t('no credentials is 401', async () => {
  const res = await call('POST', '/team_members', { body: { account_id: 'biz_x', user_id: 'user_x', role: 'viewer' } });
  assert.is(res.status, 401);
});

t.run();
