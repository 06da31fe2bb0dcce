// Events through the official client at its default pin: create with every identity the client's user carries
// (external_id, member_id, membership_id, linked_anonymous_id, linked_wuid), then list one person's events and
// retrieve the person; another account's membership is the client's BadRequestError naming the field.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type Whop from '@whop/sdk';
import { BadRequestError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeMembership } from '../memberships/fixtures.js';
import { collectAll, raw, rejects, sdk } from './sdk-helpers.js';

const t = suite('sdk: events');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;
let pinned: Whop;
t.before(async () => {
  app = await startTestApp();
  o = await makeOwner(app.db, { title: 'Pixel shop' });
  pinned = sdk(app, o.key);
});
t.after(async () => { await app.close(); });

t('events.create takes the client\'s whole user: the member\'s user\'s person, the linked anonymous person merged into it', async () => {
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const framed = await pinned.events.create({ account_id: o.accountId, event_name: 'page', user: { anonymous_id: 'anon_1b9de0' } });
  const created = await pinned.events.create({ account_id: o.accountId, event_name: 'identify', source: 'form', value: 6.9, user: {
    anonymous_id: 'anon_c2c41', external_id: 'crm_8842', member_id: m.memberId, membership_id: m.id, user_id: buyer.id,
    linked_anonymous_id: 'anon_1b9de0', linked_wuid: buyer.id, email: 'dana@shinetime.example', first_name: 'Dana',
    last_name: 'Whitfield', city: 'Austin', state: 'TX', country: 'US', postal_code: '78756', birthdate: '1990-01-15',
    gender: 'female', username: 'danawhitfield', name: 'Dana Whitfield', phone: '+15125550100' } });
  assert.match(created.id, /^cevt_/);
  const mine = await collectAll(pinned.events.list({ account_id: o.accountId, identifier: 'crm_8842' }));
  assert.equal(mine.map((e) => e.id).sort(), [created.id, framed.id].sort(), 'the linked frame\'s event joined the person');
  const personId = mine[0]!.person_id;
  assert.equal([raw(mine.find((e) => e.id === created.id)).member_id, raw(mine.find((e) => e.id === created.id)).membership_id], [m.memberId, m.id]);
  const { data } = await pinned.people.retrieve(personId);
  assert.equal([data.email, data.name, raw(data).user_id, data.purchase_count], ['dana@shinetime.example', 'Dana Whitfield', buyer.id, 0]);
  const byAnon = await collectAll(pinned.events.list({ account_id: o.accountId, identifier: 'anon_1b9de0' }));
  assert.is(byAnon.length, 2);
  assert.equal(new Set(byAnon.map((e) => e.person_id)), new Set([personId]));
});

t('events.create with another account\'s membership or disagreeing users: BadRequestError naming the field', async () => {
  const other = await makeOwner(app.db);
  const [buyer, stranger] = [await makeUser(app.db), await makeUser(app.db)];
  const theirs = await makeMembership(app, other.accountId, buyer.id);
  const bad = await rejects(pinned.events.create({ account_id: o.accountId, event_name: 'page', user: { membership_id: theirs.id } }), BadRequestError, 400);
  assert.is(raw(bad.error).error.param, 'user.membership_id');
  const split = await rejects(pinned.events.create({ account_id: o.accountId, event_name: 'page', user: { user_id: buyer.id, linked_wuid: stranger.id } }), BadRequestError, 400);
  assert.is(raw(split.error).error.param, 'user.linked_wuid');
});

t.run();
