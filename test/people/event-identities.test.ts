// POST /events' other identities over HTTP (the official client's user fields): external_id identifies a person per
// account, member_id and membership_id (the account's own) and linked_wuid name the event's user, and
// linked_anonymous_id merges a second anonymous person into the event's; conflicting users and another account's
// members are 400s naming the field, writing nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeMembership } from '../memberships/fixtures.js';
import { VERSION } from '../payments/payment-fixtures.js';

const t = suite('event-identities');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

type Owner = { key: string; accountId: string };
const track = (o: Owner, user: Record<string, unknown>) =>
  app.request('POST', '/events', { token: o.key, version: VERSION, body: { account_id: o.accountId, event_name: 'page', user } });
async function tracked(o: Owner, user: Record<string, unknown>) {
  const res = await track(o, user);
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
const person = (o: Owner, id: string) => app.request('GET', `/people/${id}`, { token: o.key, version: VERSION });
const listed = async (o: Owner, identifier: string) => (await app.request('GET', '/events', { token: o.key, version: VERSION,
  query: { account_id: o.accountId, identifier } })).body.data.map((e: any) => e.id);
const counts = async (accountId: string) => Object.fromEntries(await Promise.all(['tracked_events', 'people', 'person_identities']
  .map(async (table) => [table, Number((await app.db(table).where({ account_id: accountId }).count('* as n'))[0]!.n)])));

t('external_id names one person per account; GET /events finds it; another account\'s same external id is its own person', async () => {
  const [a, b] = [await makeOwner(app.db), await makeOwner(app.db)];
  const first = await tracked(a, { external_id: 'crm_8842' });
  const again = await tracked(a, { external_id: 'crm_8842', email: 'dana@example.com' });
  assert.is(again.person_id, first.person_id);
  assert.equal((await listed(a, 'crm_8842')).sort(), [first.id, again.id].sort());
  const elsewhere = await tracked(b, { external_id: 'crm_8842' });
  assert.is.not(elsewhere.person_id, first.person_id);
  assert.equal(await listed(b, 'crm_8842'), [elsewhere.id]);
  // An anonymous visitor later identified by the external id merges into its person.
  const anon = await tracked(a, { anonymous_id: 'anon-crm' });
  const identified = await tracked(a, { anonymous_id: 'anon-crm', external_id: 'crm_8842' });
  assert.is(identified.person_id, first.person_id);
  assert.is((await person(a, anon.person_id)).status, 404);
  const p = (await person(a, first.person_id)).body.data;
  assert.equal([p.event_count, p.email, p.user_id], [4, 'dana@example.com', null]);
  // A user id then identifies the same person (it had no user): both identities name it from now on.
  const user = await makeUser(app.db);
  const withUser = await tracked(a, { external_id: 'crm_8842', user_id: user.id });
  assert.equal([withUser.person_id, (await person(a, first.person_id)).body.data.user_id], [first.person_id, user.id]);
  assert.is((await tracked(a, { user_id: user.id })).person_id, first.person_id);
});

t('member_id and membership_id name the member\'s user: the event goes to that user\'s person and keeps them', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const byUser = await tracked(o, { user_id: buyer.id });
  const byMember = await tracked(o, { member_id: m.memberId });
  const byMembership = await tracked(o, { membership_id: m.id, anonymous_id: 'anon-member' });
  const all = await tracked(o, { user_id: buyer.id, member_id: m.memberId, membership_id: m.id });
  assert.equal([byMember.person_id, byMembership.person_id, all.person_id], Array(3).fill(byUser.person_id));
  assert.equal([byMember.member_id, byMember.membership_id, byMembership.member_id, byMembership.membership_id, byUser.member_id],
    [m.memberId, null, null, m.id, null]);
  assert.is((await person(o, byUser.person_id)).body.data.user_id, buyer.id);
  assert.equal((await listed(o, 'anon-member')).length, 4, 'the anonymous id joined the member\'s person');
});

t('linked_wuid names the platform user a linked frame captured, like user_id', async () => {
  const o = await makeOwner(app.db);
  const user = await makeUser(app.db);
  const framed = await tracked(o, { anonymous_id: 'anon-frame', linked_wuid: user.id });
  const p = (await person(o, framed.person_id)).body.data;
  assert.is(p.user_id, user.id);
  assert.is((await tracked(o, { user_id: user.id })).person_id, framed.person_id);
  const bad = await track(o, { anonymous_id: 'anon-frame', linked_wuid: 'anon-123' });
  assert.equal([bad.status, bad.body.error.param], [400, 'user.linked_wuid']);
});

t('linked_anonymous_id merges its anonymous person into the event\'s, or joins it; another user\'s device stays', async () => {
  const o = await makeOwner(app.db);
  const user = await makeUser(app.db);
  const outer = await tracked(o, { anonymous_id: 'anon-outer' });
  const inner = await tracked(o, { anonymous_id: 'anon-inner' });
  const identified = await tracked(o, { user_id: user.id, anonymous_id: 'anon-outer', linked_anonymous_id: 'anon-inner' });
  assert.is(identified.person_id, outer.person_id, 'the outer anonymous person became the user\'s');
  assert.is((await person(o, inner.person_id)).status, 404, 'the linked anonymous person is merged away');
  assert.equal((await listed(o, 'anon-inner')).sort(), [outer.id, inner.id, identified.id].sort());
  assert.is((await person(o, outer.person_id)).body.data.event_count, 3);
  // An unknown linked id becomes one of the person's identities.
  await tracked(o, { user_id: user.id, linked_anonymous_id: 'anon-new-frame' });
  assert.is((await tracked(o, { anonymous_id: 'anon-new-frame' })).person_id, outer.person_id);
  // A linked id already a different user's stays with that user.
  const other = await makeUser(app.db);
  const theirs = await tracked(o, { user_id: other.id, anonymous_id: 'anon-theirs' });
  await tracked(o, { user_id: user.id, linked_anonymous_id: 'anon-theirs' });
  assert.equal([(await person(o, theirs.person_id)).status, (await tracked(o, { anonymous_id: 'anon-theirs' })).person_id],
    [200, theirs.person_id]);
});

t('another account\'s member or membership, users that disagree and a bare linked id are 400s naming the field; nothing is written', async () => {
  const [o, other] = [await makeOwner(app.db), await makeOwner(app.db)];
  const [buyer, stranger] = [await makeUser(app.db), await makeUser(app.db)];
  const mine = await makeMembership(app, o.accountId, buyer.id);
  const theirs = await makeMembership(app, other.accountId, buyer.id);
  const strangers = await makeMembership(app, o.accountId, stranger.id);
  await tracked(o, { anonymous_id: 'anon-before' });
  const before = await counts(o.accountId);
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ member_id: theirs.memberId }, 'user.member_id', /No such member of account/],
    [{ membership_id: theirs.id }, 'user.membership_id', /No such membership of account/],
    [{ member_id: 'mber_doesnotexist000' }, 'user.member_id', /No such member/],
    [{ user_id: buyer.id, member_id: strangers.memberId }, 'user.member_id', /names the user/],
    [{ member_id: mine.memberId, membership_id: strangers.id }, 'user.membership_id', /names the user/],
    [{ user_id: buyer.id, linked_wuid: stranger.id }, 'user.linked_wuid', /names the user/],
    [{ external_id: 'has space' }, 'user.external_id', /external_id/],
    [{ member_id: mine.id }, 'user.member_id', /member_id/],
  ];
  for (const [user, param, message] of cases) {
    const res = await track(o, { anonymous_id: 'anon-before', ...user });
    assert.equal([res.status, res.body.error?.param], [400, param], JSON.stringify(user));
    assert.match(res.body.error.message, message);
  }
  const bare = await track(o, { linked_anonymous_id: 'anon-before' });
  assert.equal([bare.status, bare.body.error.param], [400, 'user']);
  assert.match(bare.body.error.message, /at least one of/);
  assert.equal(await counts(o.accountId), before);
});

t.run();
