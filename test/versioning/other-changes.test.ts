// Implemented changelog entries on users, permissions and deletes, at the version before and the version after.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { connectedAccount } from '../external_accounts/external-account-fixtures.js';
import { joinTeam } from '../auth/team.js';

const t = suite('versioning: users, permissions, webhooks and deletes');
let app: TestApp;
let owner: Awaited<ReturnType<typeof makeOwner>>;
t.before(async () => {
  app = await startTestApp();
  owner = await makeOwner(app.db, { title: 'Team' });
});
t.after(async () => { await app.close(); });

t('#12 users return social_accounts before 2026-08-28 and not from it', async () => {
  const after = await app.request('GET', `/users/${owner.owner.id}`, { token: owner.token, version: '2026-08-28' });
  assert.is(after.status, 200);
  assert.not.ok('social_accounts' in after.body);
  const before = await app.request('GET', `/users/${owner.owner.id}`, { token: owner.token, version: '2026-08-25' });
  assert.equal(before.body.social_accounts, []);

  // Older pins list the connected external accounts of the accounts the user owns, to anyone who reads the profile.
  const connected = await connectedAccount(app, owner.key, owner.accountId);
  const pending = await app.request('POST', '/external_accounts', {
    token: owner.key, version: '2026-08-28', body: { account_id: owner.accountId, platform: 'x', username: 'notyetconnected' },
  });
  assert.is(pending.status, 201);
  const stranger = await makeOwner(app.db, { title: 'Elsewhere' });
  const profile = async (version: string) => (await app.request('GET', `/users/${owner.owner.id}`, { token: stranger.token, version })).body;
  assert.equal((await profile('2026-08-25')).social_accounts, [connected.id]);
  assert.equal((await profile('2026-07-20')).social_accounts, [connected.id]);
  assert.not.ok('social_accounts' in await profile('2026-08-28'));
  const found = await app.request('GET', '/users', { token: stranger.key, version: '2026-08-25', query: { query: (await profile('2026-08-28')).username } });
  assert.is(found.status, 200, JSON.stringify(found.body));
  assert.equal(found.body.data.find((u: any) => u.id === owner.owner.id).social_accounts, [connected.id]);
  assert.equal(found.body.data.find((u: any) => u.id !== owner.owner.id)?.social_accounts ?? [], []);
  // Disconnected, it is no longer theirs.
  assert.is((await app.request('DELETE', `/external_accounts/${connected.id}`, { token: owner.key, version: '2026-08-28' })).status, 200);
  assert.equal((await profile('2026-08-25')).social_accounts, []);
});

t('#18 permission checks list the trading actions from 2026-08-28 only', async () => {
  const get = (version: string) => app.request('GET', '/permissions', { token: owner.key, version, query: { resource_id: owner.accountId } });
  const after = await get('2026-08-28');
  assert.is(after.status, 200);
  const actions = after.body.data.map((p: any) => p.action);
  assert.ok(actions.includes('crypto_wallet:trade'));
  assert.ok(actions.includes('crypto_wallet:trade:read'));
  const before = (await get('2026-08-25')).body.data.map((p: any) => p.action);
  assert.is(before.length, actions.length - 2);
  assert.not.ok(before.some((a: string) => a.startsWith('crypto_wallet:trade')));
});

t('#59 the team filter on user search is account_id from 2026-07-22 and company_id before', async () => {
  const member = await makeUser(app.db, 'zed_member');
  await joinTeam(app, owner.token, owner.accountId, 'viewer', [], member);
  await makeUser(app.db, 'zed_outsider');
  const now = await app.request('GET', '/users', { token: owner.key, version: '2026-07-22', query: { query: 'zed', account_id: owner.accountId } });
  assert.is(now.status, 200);
  assert.equal(now.body.data.map((u: any) => u.username), ['zed_member']);
  const old = await app.request('GET', '/users', { token: owner.key, version: '2025-01-01', query: { query: 'zed', company_id: owner.accountId } });
  assert.is(old.status, 200);
  assert.equal(old.body.data.map((u: any) => u.username), ['zed_member']);
  const wrongName = await app.request('GET', '/users', { token: owner.key, version: '2026-07-22', query: { query: 'zed', company_id: owner.accountId } });
  assert.is(wrongName.status, 400);
  assert.is(wrongName.body.error.param, 'company_id');
  const all = await app.request('GET', '/users', { token: owner.key, version: '2026-07-22', query: { query: 'zed' } });
  assert.equal(all.body.data.map((u: any) => u.username), ['zed_member', 'zed_outsider']);
});

t('#54 deletes answer { id, deleted: true } from 2026-07-22 and { id, success: true } before', async () => {
  const remove = async (version: string) => {
    const user = await makeUser(app.db);
    const { memberId: id } = await joinTeam(app, owner.token, owner.accountId, 'viewer', [], user);
    return { id, res: await app.request('DELETE', `/team_members/${id}`, { token: owner.token, version }) };
  };
  const now = await remove('2026-07-22');
  assert.is(now.res.status, 200);
  assert.equal(now.res.body, { id: now.id, deleted: true });
  const old = await remove('2025-01-01');
  assert.equal(old.res.body, { id: old.id, success: true });
});

t('#43 webhook api_version is accepted before 2026-08-07 and rejected from it', async () => {
  // Before 2026-08-14 (#41) the subscription names its account resource_id, as the official client does.
  const body = { resource_id: owner.accountId, url: 'https://example.com/hooks', events: ['payment.succeeded'], api_version: 'v1' };
  const old = await app.request('POST', '/webhooks', { token: owner.key, version: '2026-07-30', body });
  assert.is(old.status, 201);
  const other = await app.request('POST', '/webhooks', { token: owner.key, version: '2026-07-30', body: { ...body, api_version: 'v2' } });
  assert.is(other.status, 400);
  assert.is(other.body.error.param, 'api_version');
  assert.match(other.body.error.message, /cannot be created or switched to/);
  const now = await app.request('POST', '/webhooks', { token: owner.key, version: '2026-08-07', body });
  assert.is(now.status, 400);
  assert.is(now.body.error.param, 'api_version');
  const patched = await app.request('PATCH', `/webhooks/${old.body.id}`, { token: owner.key, version: '2026-09-06', body: { api_version: 'v1' } });
  assert.is(patched.status, 400);
});

t.run();
