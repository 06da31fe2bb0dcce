// GET /members and GET /members/{id}: derived access level, filters, visibility.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeAccount, makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { newId } from '../../runtime/ids.js';
import { joinTeam } from '../auth/team.js';
import { issueUserToken } from '../../handlers/users/user-service.js';
import { makeMembership } from '../memberships/fixtures.js';
import { lifecycleApi } from '../memberships/lifecycle-fixtures.js';
import { makeSeller } from '../payments/payment-fixtures.js';

const t = suite('members');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

const ids = (res: any) => res.body.data.map((m: any) => m.id);

t('retrieve: every field, with the user summary and a derived access level', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db, `Buyer${newId('').slice(0, 6)}`);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const res = await call('GET', `/members/${m.memberId}`, { token: o.key });
  assert.is(res.status, 200);
  assert.equal(Object.keys(res.body).sort(), ['access_level', 'account_id', 'created_at', 'id', 'joined_at', 'last_opened_at', 'status', 'user']);
  assert.equal(res.body.user, { id: buyer.id, username: buyer.user.username, name: buyer.user.name });
  assert.is(res.body.account_id, o.accountId);
  assert.is(res.body.status, 'joined');
  assert.is(res.body.access_level, 'customer');
  assert.is(res.body.last_opened_at, null);
});

t('access level follows the memberships and the team, never a stale stored value', async () => {
  const lifecycle = lifecycleApi(app);
  const o = await lifecycle.shop(await makeSeller(app.db));
  // Its renewal failed (a card that needs the buyer, off-session): past_due, which still grants access.
  const m = await lifecycle.membershipIn(o, 'past_due');
  const buyer = { id: m.userId, token: (await issueUserToken(app.db, m.userId)).secret };
  await app.db('members').where({ id: m.memberId }).update({ access_level: 'admin' }); // sql-state-write: a stale stored value the product never writes, to prove reads ignore it
  const level = async () => (await call('GET', `/members/${m.memberId}`, { token: o.key })).body.access_level;
  assert.is(await level(), 'customer');
  await call('POST', `/memberships/${m.id}/pause`, { token: o.key });
  assert.is(await level(), 'no_access');
  await joinTeam(app, o.key, o.accountId, 'viewer', [], buyer);
  assert.is(await level(), 'admin');
});

t('only mber_ ids: a user id, a username or an unknown id is 404', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  await makeMembership(app, o.accountId, buyer.id);
  for (const id of [buyer.id, buyer.user.username, 'mber_missing']) {
    const res = await call('GET', `/members/${id}`, { token: o.key });
    assert.is(res.status, 404, id);
    assert.is(res.body.error.type, 'not_found');
    assert.is(res.body.error.param, 'id');
  }
});

t('another account\'s member is 404; a key without member:basic:read is 403; no credentials 401', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, b.accountId, buyer.id);
  const hidden = await call('GET', `/members/${m.memberId}`, { token: a.key });
  assert.is(hidden.status, 404);
  const narrow = await makeKey(app.db, { accountId: b.accountId, statements: [{ effect: 'allow', actions: ['company:basic:read'] }] });
  const denied = await call('GET', `/members/${m.memberId}`, { token: narrow.secret });
  assert.is(denied.status, 403);
  assert.is(denied.body.error.type, 'permission_denied');
  const listDenied = await call('GET', '/members', { token: narrow.secret, query: { account_id: b.accountId } });
  assert.is(listDenied.status, 403);
  assert.is((await call('GET', '/members')).status, 401);
  const ownMember = await call('GET', `/members/${m.memberId}`, { token: buyer.token });
  assert.is(ownMember.status, 404, 'buyers do not read member records');
});

t('list: the key\'s account and its connected accounts, newest first; account_id narrows; invisible account 404', async () => {
  const p = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId });
  const other = await makeOwner(app.db);
  const u1 = await makeUser(app.db);
  const u2 = await makeUser(app.db);
  const a = await makeMembership(app, p.accountId, u1.id);
  const b = await makeMembership(app, child.id, u2.id);
  await makeMembership(app, other.accountId, u1.id);
  const all = await call('GET', '/members', { token: p.key });
  assert.is(all.status, 200);
  assert.equal(ids(all), [b.memberId, a.memberId]);
  assert.equal(ids(await call('GET', '/members', { token: p.key, query: { account_id: child.id } })), [b.memberId]);
  const hidden = await call('GET', '/members', { token: p.key, query: { account_id: other.accountId } });
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.param, 'account_id');
  const byToken = await call('GET', '/members', { token: p.token });
  assert.equal(ids(byToken), [b.memberId, a.memberId]);
  const buyerToken = await call('GET', '/members', { token: u1.token });
  assert.equal(ids(buyerToken), []);
});

t('filters: user_ids[], query (literal % and _), access_level, status, joined_after/before', async () => {
  const o = await makeOwner(app.db);
  const alice = await makeUser(app.db, `alice_${newId('').slice(0, 5)}`);
  const bob = await makeUser(app.db, `bob${newId('').slice(0, 5)}`);
  const carol = await makeUser(app.db, `carol${newId('').slice(0, 5)}`);
  const ma = await makeMembership(app, o.accountId, alice.id);
  const mb = await makeMembership(app, o.accountId, bob.id);
  const mc = await makeMembership(app, o.accountId, carol.id);
  await call('POST', `/memberships/${mc.id}/cancel`, { token: o.key });
  const list = async (query: Record<string, any>) => {
    const res = await call('GET', '/members', { token: o.key, query: { account_id: o.accountId, ...query } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    return ids(res).sort();
  };
  assert.equal(await list({ user_ids: [alice.id, bob.id] }), [ma.memberId, mb.memberId].sort());
  assert.equal(await list({ query: 'ALICE' }), [ma.memberId]);
  assert.equal(await list({ query: 'e_' }), [ma.memberId], 'underscore is literal');
  assert.equal(await list({ query: '%' }), []);
  assert.equal(await list({ query: `${bob.user.username}@example` }), [mb.memberId], 'matches e-mail');
  assert.equal(await list({ access_level: 'no_access' }), [mc.memberId]);
  assert.equal(await list({ access_level: 'customer' }), [ma.memberId, mb.memberId].sort());
  assert.equal(await list({ status: 'left' }), [mc.memberId]);
  assert.equal(await list({ status: 'joined' }), [ma.memberId, mb.memberId].sort());
  const joinedB = (await app.db('members').where({ id: mb.memberId }).first()).joined_at;
  assert.equal(await list({ joined_after: joinedB }), [mc.memberId]);
  assert.equal(await list({ joined_before: joinedB }), [ma.memberId]);
  for (const [query, param] of [[{ access_level: 'owner' }, 'access_level'], [{ status: 'gone' }, 'status'],
    [{ joined_after: 'yesterday' }, 'joined_after'], [{ user_ids: ['nope'] }, 'user_ids[0]']] as [Record<string, string | string[]>, string][]) {
    const bad = await call('GET', '/members', { token: o.key, query });
    assert.is(bad.status, 400, JSON.stringify(query));
    assert.is(bad.body.error.param, param);
  }
});

t('cursor pages', async () => {
  const o = await makeOwner(app.db);
  const made: string[] = [];
  for (let i = 0; i < 3; i++) made.push((await makeMembership(app, o.accountId, (await makeUser(app.db)).id)).memberId);
  const first = await call('GET', '/members', { token: o.key, query: { first: 2 } });
  assert.equal(ids(first), [made[2], made[1]]);
  assert.is(first.body.page_info.has_next_page, true);
  const next = await call('GET', '/members', { token: o.key, query: { first: 2, after: first.body.page_info.end_cursor } });
  assert.equal(ids(next), [made[0]]);
  assert.is(next.body.page_info.has_next_page, false);
  const back = await call('GET', '/members', { token: o.key, query: { last: 1, before: next.body.page_info.start_cursor } });
  assert.equal(ids(back), [made[1]]);
});

t('a member who left rejoins with a new membership', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  await call('POST', `/memberships/${m.id}/cancel`, { token: o.key });
  assert.is((await call('GET', `/members/${m.memberId}`, { token: o.key })).body.status, 'left');
  const again = await makeMembership(app, o.accountId, buyer.id);
  assert.is(again.memberId, m.memberId);
  const res = await call('GET', `/members/${m.memberId}`, { token: o.key });
  assert.is(res.body.status, 'joined');
  assert.is(res.body.access_level, 'customer');
});

t.run();
