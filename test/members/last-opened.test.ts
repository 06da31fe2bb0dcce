// Member last_opened_at: set when the member's own user token checks its access to the account (or to one of its
// products) through GET /users/{id}/access/{resource_id}, at most once a minute; other callers never set it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { joinTeam } from '../auth/team.js';
import { makeMembership, makeProduct } from '../memberships/fixtures.js';

const t = suite('member last_opened_at');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const check = (token: string, userId: string, resourceId: string) => call('GET', `/users/${userId}/access/${resourceId}`, { token });
const lastOpened = async (key: string, memberId: string) => {
  const res = await call('GET', `/members/${memberId}`, { token: key });
  assert.is(res.status, 200);
  return res.body.last_opened_at as string | null;
};
/** Moves the recorded open back in time, as if `seconds` had passed since. */
const age = (memberId: string, seconds: number) =>
  app.db('members').where({ id: memberId }).update({ last_opened_at: app.db.raw(`last_opened_at - interval '${seconds} seconds'`) }); // sql-state-write: opens are recorded at minute resolution in real time (a user token runs on no sandbox clock); waiting minutes per case is not a test

t('null until the member\'s own user token checks its access to the account; then about now', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  assert.is(await lastOpened(o.key, m.memberId), null);

  // Other callers: the account's API key and its owner's user token checking the buyer, reads of the member.
  assert.is((await check(o.key, buyer.id, o.accountId)).status, 200);
  assert.is((await check(o.token, buyer.id, o.accountId)).status, 200);
  assert.is((await check(o.key, buyer.id, m.productId)).status, 200);
  assert.is((await call('GET', '/members', { token: o.key, query: { account_id: o.accountId } })).status, 200);
  assert.is(await lastOpened(o.key, m.memberId), null, 'not set by other callers');

  const before = Date.now();
  const own = await check(buyer.token, buyer.id, o.accountId);
  assert.is(own.status, 200);
  assert.equal(own.body, { has_access: true, access_level: 'customer' });
  const opened = await lastOpened(o.key, m.memberId);
  assert.type(opened, 'string');
  assert.ok(Math.abs(Date.parse(opened!) - before) < 5_000, `${opened} is about now`);
  const listed = await call('GET', '/members', { token: o.key, query: { account_id: o.accountId } });
  assert.is(listed.body.data.find((row: any) => row.id === m.memberId).last_opened_at, opened);

  // Later reads by others leave it as it is.
  await age(m.memberId, 120);
  const aged = await lastOpened(o.key, m.memberId);
  await check(o.key, buyer.id, o.accountId);
  await check(o.token, buyer.id, m.productId);
  assert.is(await lastOpened(o.key, m.memberId), aged);
});

t('written at most once a minute: a second open within the minute keeps the first; after it, moves on', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  await check(buyer.token, buyer.id, o.accountId);
  await age(m.memberId, 30);
  const first = await lastOpened(o.key, m.memberId);
  await check(buyer.token, buyer.id, o.accountId);
  await check(buyer.token, buyer.id, m.productId);
  assert.is(await lastOpened(o.key, m.memberId), first, 'within a minute: not written');

  await age(m.memberId, 40); // 70 seconds since the recorded open
  const aged = await lastOpened(o.key, m.memberId);
  await check(buyer.token, buyer.id, o.accountId);
  const next = await lastOpened(o.key, m.memberId);
  assert.ok(Date.parse(next!) > Date.parse(aged!) + 60_000, `${next} moved on from ${aged}`);
});

t('a product of the account counts; it is the account\'s member that records it, even without access', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const otherProduct = await makeProduct(app, o.accountId);
  const res = await check(buyer.token, buyer.id, otherProduct);
  assert.equal(res.body, { has_access: false, access_level: 'no_access' });
  assert.type(await lastOpened(o.key, m.memberId), 'string', 'the member opened the account, whatever the product grants');

  // A member who left (no access left) still opens the account.
  const gone = await makeUser(app.db);
  const g = await makeMembership(app, o.accountId, gone.id);
  // Canceled now (not at period end): no access is left, so the member leaves.
  assert.is((await call('POST', `/memberships/${g.id}/cancel`, { token: o.key })).status, 200);
  assert.is((await app.db('members').where({ id: g.memberId }).first('status')).status, 'left');
  assert.is(await lastOpened(o.key, g.memberId), null);
  const left = await check(gone.token, gone.id, o.accountId);
  assert.is(left.status, 200);
  assert.type(await lastOpened(o.key, g.memberId), 'string');
});

t('only the account opened: another account\'s member is untouched, and no member row is made for a non-member', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const ma = await makeMembership(app, a.accountId, buyer.id);
  const mb = await makeMembership(app, b.accountId, buyer.id);
  await check(buyer.token, buyer.id, b.accountId);
  assert.type(await lastOpened(b.key, mb.memberId), 'string');
  assert.is(await lastOpened(a.key, ma.memberId), null);

  const stranger = await makeUser(app.db);
  const res = await check(stranger.token, stranger.id, a.accountId);
  assert.equal(res.body, { has_access: false, access_level: 'no_access' });
  assert.is(await app.db('members').where({ user_id: stranger.id }).first(), undefined);

  // A team member checking their own access records nothing for the buyer, and is not made a member.
  const teammate = await makeUser(app.db);
  await joinTeam(app, a.token, a.accountId, 'viewer', [], teammate);
  assert.equal((await check(teammate.token, teammate.id, a.accountId)).body, { has_access: true, access_level: 'admin' });
  assert.is(await app.db('members').where({ user_id: teammate.id }).first(), undefined);
  assert.is(await lastOpened(a.key, ma.memberId), null);

  // A check refused (unknown product) records nothing.
  const unknown = await check(buyer.token, buyer.id, 'prod_missing');
  assert.is(unknown.status, 404);
  assert.is(await lastOpened(a.key, ma.memberId), null);
});

t.run();
