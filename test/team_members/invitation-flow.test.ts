import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeAccount, makeOwner, makeUser } from '../helpers/fixtures.js';

const t = suite('Team invitation flow and POST /team_members/{id}/accept');
let app: TestApp;
/** Requests at the head version: these tests describe the head shape; older shapes are the versioning tests' concern. */
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('invite -> no access until accepted -> accept -> access per the role', async () => {
  const o = await makeOwner(app.db);
  const invitee = await makeUser(app.db, 'flow_invitee');

  const invite = await call('POST', '/team_members', {
    token: o.token, body: { account_id: o.accountId, username: 'flow_invitee', role: 'viewer' },
  });
  assert.is(invite.status, 201);
  const memberId = invite.body.id;

  // Invited is not a member yet: the account stays invisible.
  const hidden = await call('GET', `/accounts/${o.accountId}`, { token: invitee.token });
  assert.is(hidden.status, 404);
  const noPerms = await call('GET', '/permissions', { token: invitee.token, query: { resource_id: o.accountId } });
  assert.is(noPerms.status, 404);
  const noList = await call('GET', '/team_members', { token: invitee.token, query: { account_id: o.accountId } });
  assert.is(noList.status, 404);

  // The invitation reaches the invitee through their notifications.
  const note = await app.db('notifications').where({ user_id: invitee.id, type: 'team_invitation' }).first();
  assert.is(note.data.team_member_id, memberId);

  const accepted = await call('POST', `/team_members/${memberId}/accept`, { token: invitee.token });
  assert.is(accepted.status, 200);
  assert.is(accepted.body.id, memberId);
  assert.is(accepted.body.status, 'active');
  assert.ok(accepted.body.accepted_at);
  assert.is(accepted.body.role, 'viewer');
  assert.ok((await app.db('notifications').where({ id: note.id }).first()).read_at);
  const events = await app.db('events').where({ type: 'team_member.accepted', account_id: o.accountId });
  assert.is(events.length, 1);
  assert.is(events[0].data.status, 'active');

  const visible = await call('GET', `/accounts/${o.accountId}`, { token: invitee.token });
  assert.is(visible.status, 200);
  assert.is(visible.body.id, o.accountId);
  const perms = await call('GET', '/permissions', { token: invitee.token, query: { resource_id: o.accountId } });
  const granted = (action: string) => perms.body.data.find((p: any) => p.action === action).granted;
  assert.is(granted('company:basic:read'), true);
  assert.is(granted('team_member:manage'), false);
  // A viewer cannot invite others.
  const other = await makeUser(app.db);
  const cannotInvite = await call('POST', '/team_members', {
    token: invitee.token, body: { account_id: o.accountId, user_id: other.id, role: 'viewer' },
  });
  assert.is(cannotInvite.status, 403);
  const access = await call('GET', `/users/${invitee.id}/access/${o.accountId}`, { token: invitee.token });
  assert.equal(access.body, { has_access: true, access_level: 'admin' });
});

t('accepting twice is 400', async () => {
  const o = await makeOwner(app.db);
  const u = await makeUser(app.db);
  const invite = await call('POST', '/team_members', { token: o.key, body: { account_id: o.accountId, user_id: u.id, role: 'admin' } });
  const first = await call('POST', `/team_members/${invite.body.id}/accept`, { token: u.token });
  assert.is(first.status, 200);
  const second = await call('POST', `/team_members/${invite.body.id}/accept`, { token: u.token });
  assert.is(second.status, 400);
  assert.is(second.body.error.type, 'invalid_state');
  assert.is(second.body.error.param, 'status');
  assert.match(second.body.error.message, 'status is active cannot accept');
  assert.is(second.headers.get('x-should-retry'), 'false');
  const stored = await app.db('team_members').where({ id: invite.body.id }).first();
  assert.is(stored.accepted_at, first.body.accepted_at);
});

t('only the invitee may accept: others are 404, API keys 403, no credentials 401', async () => {
  const o = await makeOwner(app.db);
  const u = await makeUser(app.db);
  const invite = await call('POST', '/team_members', { token: o.key, body: { account_id: o.accountId, user_id: u.id, role: 'viewer' } });
  const path = `/team_members/${invite.body.id}/accept`;
  const byOwner = await call('POST', path, { token: o.token });
  assert.is(byOwner.status, 404);
  assert.is(byOwner.body.error.type, 'not_found');
  assert.is(byOwner.body.error.param, 'id');
  const stranger = await makeUser(app.db);
  const byStranger = await call('POST', path, { token: stranger.token });
  assert.is(byStranger.status, 404);
  const byKey = await call('POST', path, { token: o.key });
  assert.is(byKey.status, 403);
  assert.is(byKey.body.error.type, 'permission_denied');
  const anon = await call('POST', path);
  assert.is(anon.status, 401);
  const unknown = await call('POST', '/team_members/tmem_none/accept', { token: u.token });
  assert.is(unknown.status, 404);
  assert.is((await app.db('team_members').where({ id: invite.body.id }).first()).status, 'invited');
});

t('accept takes no body fields (400)', async () => {
  const o = await makeOwner(app.db);
  const u = await makeUser(app.db);
  const invite = await call('POST', '/team_members', { token: o.key, body: { account_id: o.accountId, user_id: u.id, role: 'viewer' } });
  const res = await call('POST', `/team_members/${invite.body.id}/accept`, { token: u.token, body: { role: 'admin' } });
  assert.is(res.status, 400);
  assert.is(res.body.error.param, 'role');
});

t('an invitation to a parent account grants its connected accounts only once accepted', async () => {
  const p = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId });
  const childId = child.id as string;
  const u = await makeUser(app.db);
  const invite = await call('POST', '/team_members', { token: p.key, body: { account_id: p.accountId, user_id: u.id, role: 'viewer' } });
  assert.is((await call('GET', `/accounts/${childId}`, { token: u.token })).status, 404);
  await call('POST', `/team_members/${invite.body.id}/accept`, { token: u.token });
  assert.is((await call('GET', `/accounts/${childId}`, { token: u.token })).status, 200);
});

t.run();
