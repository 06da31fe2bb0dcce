// /events and /people over HTTP: tracking creates and finds people by their identities, identification merges an
// anonymous person into a user's (events follow), the shared-device rule, attribution to a payment, value in minor
// units, event_id deduplication, every refusal naming its field and writing nothing, lists and their filters, scopes,
// and another account never seeing them (404).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeSeller, makeVariant, pay, viewerKey, VERSION } from '../payments/payment-fixtures.js';

const t = suite('people-events');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

type Owner = { key: string; accountId: string };
const track = (o: Owner, body: Record<string, unknown>, version = VERSION) =>
  app.request('POST', '/events', { token: o.key, version, body: { account_id: o.accountId, event_name: 'page', ...body } });

async function tracked(o: Owner, body: Record<string, unknown>) {
  const res = await track(o, body);
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
const person = (o: Owner, id: string) => app.request('GET', `/people/${id}`, { token: o.key, version: VERSION });
const events = (o: Owner, query: Record<string, string | number> = {}) =>
  app.request('GET', '/events', { token: o.key, version: VERSION, query: { account_id: o.accountId, ...query } });
const rows = async (accountId: string) => ({
  events: Number((await app.db('tracked_events').where({ account_id: accountId }).count('* as n'))[0]!.n),
  people: Number((await app.db('people').where({ account_id: accountId }).count('* as n'))[0]!.n),
  identities: Number((await app.db('person_identities').where({ account_id: accountId }).count('* as n'))[0]!.n),
});

t('an anonymous visitor\'s first event creates a person; later events find it by the same anonymous id', async () => {
  const o = await makeOwner(app.db);
  const first = await tracked(o, { event_time: '2026-09-01T10:00:00.000Z', url: 'https://shop.example/a', user: { anonymous_id: 'anon-1' } });
  assert.match(first.id, /^cevt_/);
  assert.match(first.person_id, /^prsn_/);
  assert.equal([first.account_id, first.event_id, first.event_name, first.event_time, first.url, first.value, first.payment_id, first.context],
    [o.accountId, first.id, 'page', '2026-09-01T10:00:00.000Z', 'https://shop.example/a', null, null, null]);
  const second = await tracked(o, { event_time: '2026-09-01T09:00:00.000Z', user: { anonymous_id: 'anon-1', name: 'Ada', phone: '+44 20 7946 0000' }, context: { utm_source: 'news' } });
  assert.is(second.person_id, first.person_id);
  assert.equal(second.context, { utm_source: 'news' });
  const p = await person(o, first.person_id);
  assert.is(p.status, 200, JSON.stringify(p.body));
  assert.equal([p.body.data.id, p.body.data.person_id, p.body.data.user_id, p.body.data.name, p.body.data.phone,
    p.body.data.event_count, p.body.data.purchase_count, p.body.data.first_seen_at, p.body.data.last_seen_at],
  [first.person_id, first.person_id, null, 'Ada', '+44 20 7946 0000', 2, 0, '2026-09-01T09:00:00.000Z', '2026-09-01T10:00:00.000Z']);
});

t('identifying merges the anonymous person into the user\'s: identities and events follow, the anonymous id answers 404', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const known = await tracked(o, { event_time: '2026-09-01T08:00:00.000Z', user: { user_id: buyer.id, email: 'Ada@Example.com' } });
  const anon1 = await tracked(o, { event_time: '2026-09-02T08:00:00.000Z', user: { anonymous_id: 'device-a', name: 'Visitor' } });
  const anon2 = await tracked(o, { event_time: '2026-09-02T09:00:00.000Z', user: { anonymous_id: 'device-a' } });
  assert.is.not(anon1.person_id, known.person_id);
  const identified = await tracked(o, { event_name: 'purchase', event_time: '2026-09-03T08:00:00.000Z', user: { anonymous_id: 'device-a', user_id: buyer.id } });
  assert.is(identified.person_id, known.person_id);
  assert.is((await person(o, anon1.person_id)).status, 404);
  const merged = (await person(o, known.person_id)).body.data;
  assert.equal([merged.user_id, merged.email, merged.name, merged.event_count, merged.first_seen_at, merged.last_seen_at],
    [buyer.id, 'Ada@Example.com', 'Visitor', 4, '2026-09-01T08:00:00.000Z', '2026-09-03T08:00:00.000Z']);
  // every identity now names the user's person: the events list by any of them is the four events
  for (const identifier of ['device-a', buyer.id, 'ada@example.com', known.person_id]) {
    const list = await events(o, { identifier });
    assert.is(list.status, 200);
    assert.equal(list.body.data.map((e: any) => e.id), [identified.id, anon2.id, anon1.id, known.id], identifier);
    assert.ok(list.body.data.every((e: any) => e.person_id === known.person_id));
  }
  // a later anonymous-only event from the device lands on the user's person
  assert.is((await tracked(o, { user: { anonymous_id: 'device-a' } })).person_id, known.person_id);
  assert.equal(await rows(o.accountId), { events: 5, people: 1, identities: 3 });
});

t('an anonymous person with no user person yet becomes the user\'s; a device identified as one user stays with it', async () => {
  const o = await makeOwner(app.db);
  const [a, b] = [await makeUser(app.db), await makeUser(app.db)];
  const anon = await tracked(o, { user: { anonymous_id: 'shared-tablet' } });
  const asA = await tracked(o, { user: { anonymous_id: 'shared-tablet', user_id: a.id } });
  assert.is(asA.person_id, anon.person_id);
  assert.is((await person(o, anon.person_id)).body.data.user_id, a.id);
  const asB = await tracked(o, { user: { anonymous_id: 'shared-tablet', user_id: b.id } });
  assert.is.not(asB.person_id, anon.person_id);
  assert.is((await person(o, asB.person_id)).body.data.user_id, b.id);
  assert.is((await tracked(o, { user: { anonymous_id: 'shared-tablet' } })).person_id, anon.person_id);
  assert.equal((await events(o, { identifier: b.id })).body.data.map((e: any) => e.id), [asB.id]);
});

t('concurrent first events of one visitor make one person; concurrent identifications merge once', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const first = await Promise.all(Array.from({ length: 8 }, () => track(o, { user: { anonymous_id: 'burst', email: 'burst@example.com' } })));
  assert.ok(first.every((r) => r.status === 201), JSON.stringify(first.map((r) => r.body)));
  assert.is(new Set(first.map((r) => r.body.person_id)).size, 1);
  await tracked(o, { user: { user_id: buyer.id } });
  const both = await Promise.all(Array.from({ length: 6 }, (_, i) => track(o, i % 2
    ? { user: { anonymous_id: 'burst', user_id: buyer.id } } : { user: { email: 'burst@example.com' } })));
  assert.ok(both.every((r) => r.status === 201), JSON.stringify(both.map((r) => r.body)));
  // however the merge and the email events interleaved, every event is counted once on a person that exists
  const people = await app.db('people').where({ account_id: o.accountId }).select('id', 'event_count');
  assert.is(people.reduce((n, p) => n + p.event_count, 0), 15);
  const events = await app.db('tracked_events').where({ account_id: o.accountId }).select('person_id');
  assert.ok(events.every((e) => people.some((p) => p.id === e.person_id)));
  // an identification after the burst leaves one person holding every identity
  await tracked(o, { user: { anonymous_id: 'burst', user_id: buyer.id } });
  assert.equal(await rows(o.accountId), { events: 16, people: 1, identities: 3 });
});

t('an event is attributed to one of the account\'s payments; the person counts the purchase', async () => {
  const seller = await makeSeller(app.db);
  const payment = await pay(app, seller, { amount: 2500, currency: 'usd' });
  const variant = await makeVariant(app, seller.accountId);
  const e = await tracked(seller, { event_name: 'purchase', payment_id: payment.id, product_id: variant.productId, plan_id: variant.id,
    value: 25, currency: 'usd', user: { anonymous_id: 'buyer-device' } });
  assert.equal([e.payment_id, e.product_id, e.plan_id, e.value], [payment.id, variant.productId, variant.id,
    { amount: 2500, currency: 'usd', decimals: 2, display_decimals: 2 }]);
  assert.is((await person(seller, e.person_id)).body.data.purchase_count, 1);
});

t('references of another account, bad values and missing identities are 400s naming the field; nothing is written', async () => {
  const seller = await makeSeller(app.db);
  const other = await makeSeller(app.db);
  const theirs = await pay(app, other, { amount: 1000, currency: 'usd' });
  const theirVariant = await makeVariant(app, other.accountId);
  const cases: [Record<string, unknown>, string][] = [
    [{ payment_id: theirs.id, user: { anonymous_id: 'x' } }, 'payment_id'],
    [{ payment_id: 'pay_doesnotexist', user: { anonymous_id: 'x' } }, 'payment_id'],
    [{ product_id: theirVariant.productId, user: { anonymous_id: 'x' } }, 'product_id'],
    [{ plan_id: theirVariant.id, user: { anonymous_id: 'x' } }, 'plan_id'],
    [{ value: 10.431, user: { anonymous_id: 'x' } }, 'value'],
    [{ value: 1.5, currency: 'jpy', user: { anonymous_id: 'x' } }, 'value'],
    [{ event_time: '1969-12-31T23:59:59Z', user: { anonymous_id: 'x' } }, 'event_time'],
    [{ user: {} }, 'user'],
    [{ user: { name: 'only a name' } }, 'user'],
    [{}, 'user'],
    [{ user: { anonymous_id: 'has space' } }, 'user.anonymous_id'],
    [{ user: { user_id: 'biz_123' } }, 'user.user_id'],
    [{ event_name: '', user: { anonymous_id: 'x' } }, 'event_name'],
  ];
  for (const [body, param] of cases) {
    const res = await track(seller, body);
    assert.is(res.status, 400, JSON.stringify([body, res.body]));
    assert.is(res.body.error.param, param, JSON.stringify(body));
  }
  assert.equal(await rows(seller.accountId), { events: 0, people: 0, identities: 0 });
  const jpy = await tracked(seller, { value: 1500, currency: 'jpy', user: { anonymous_id: 'x' } });
  assert.equal(jpy.value, { amount: 1500, currency: 'jpy', decimals: 0, display_decimals: 0 });
});

t('event_id deduplicates: the stored event answers and no count moves', async () => {
  const o = await makeOwner(app.db);
  const first = await tracked(o, { event_id: 'order-77', event_name: 'lead', user: { anonymous_id: 'd' } });
  assert.is(first.event_id, 'order-77');
  const again = await tracked(o, { event_id: 'order-77', event_name: 'lead', user: { anonymous_id: 'd' } });
  assert.equal(again, first);
  assert.is((await person(o, first.person_id)).body.data.event_count, 1);
  assert.equal(await rows(o.accountId), { events: 1, people: 1, identities: 1 });
  // another account may use the same event_id
  const other = await makeOwner(app.db);
  assert.is.not((await tracked(other, { event_id: 'order-77', user: { anonymous_id: 'd' } })).id, first.id);
});

t('GET /events: most recent first, keyset pages, from/to, an unknown identifier lists nothing', async () => {
  const o = await makeOwner(app.db);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await tracked(o, { event_time: `2026-09-0${i + 1}T12:00:00.000Z`, user: { anonymous_id: `v${i % 2}` } })).id);
  const page1 = await events(o, { first: 2 });
  assert.equal(page1.body.data.map((e: any) => e.id), [ids[4], ids[3]]);
  assert.is(page1.body.page_info.has_next_page, true);
  const page2 = await events(o, { first: 2, after: page1.body.page_info.end_cursor });
  assert.equal(page2.body.data.map((e: any) => e.id), [ids[2], ids[1]]);
  const window = await events(o, { from: '2026-09-02T00:00:00Z', to: '2026-09-04T12:00:00Z' });
  assert.equal(window.body.data.map((e: any) => e.id), [ids[2], ids[1]]);
  assert.equal((await events(o, { identifier: 'v1' })).body.data.map((e: any) => e.id), [ids[3], ids[1]]);
  assert.equal((await events(o, { identifier: 'nobody' })).body.data, []);
  const bad = await events(o, { from: 'yesterday' });
  assert.equal([bad.status, bad.body.error.param], [400, 'from']);
});

t('GET /people: most recently seen first, direction asc, from/to on last_seen_at', async () => {
  const o = await makeOwner(app.db);
  const a = await tracked(o, { event_time: '2026-09-01T00:00:00.000Z', user: { anonymous_id: 'a' } });
  const b = await tracked(o, { event_time: '2026-09-03T00:00:00.000Z', user: { anonymous_id: 'b' } });
  const c = await tracked(o, { event_time: '2026-09-02T00:00:00.000Z', user: { anonymous_id: 'c' } });
  const list = (query: Record<string, string> = {}) => app.request('GET', '/people', { token: o.key, version: VERSION, query: { account_id: o.accountId, ...query } });
  assert.equal((await list()).body.data.map((p: any) => p.id), [b.person_id, c.person_id, a.person_id]);
  assert.equal((await list({ direction: 'asc' })).body.data.map((p: any) => p.id), [a.person_id, c.person_id, b.person_id]);
  assert.equal((await list({ from: '2026-09-01T12:00:00Z', to: '2026-09-03T00:00:00Z' })).body.data.map((p: any) => p.id), [c.person_id]);
});

t('another account never sees people or events (404); a viewer lacks the scopes (403)', async () => {
  const o = await makeOwner(app.db);
  const e = await tracked(o, { user: { anonymous_id: 'private' } });
  const stranger = await makeOwner(app.db);
  await tracked(stranger, { user: { anonymous_id: 'theirs' } });
  assert.is((await person(stranger, e.person_id)).status, 404);
  for (const path of ['/events', '/people']) {
    const res = await app.request('GET', path, { token: stranger.key, version: VERSION, query: { account_id: o.accountId } });
    assert.is(res.status, 404, path);
    const mine = await app.request('GET', path, { token: stranger.key, version: VERSION });
    assert.ok(mine.body.data.every((x: any) => x.account_id === stranger.accountId), path);
    assert.is(mine.body.data.length, 1);
  }
  const post = await app.request('POST', '/events', { token: stranger.key, version: VERSION, body: { account_id: o.accountId, event_name: 'page', user: { anonymous_id: 'x' } } });
  assert.is(post.status, 404);
  // a person id of the account named only through its identity: the stranger's identifier finds nothing of ours
  assert.equal((await app.request('GET', '/events', { token: stranger.key, version: VERSION, query: { identifier: 'private' } })).body.data, []);
  const viewer = await viewerKey(app.db, o.accountId);
  assert.is((await app.request('GET', `/people/${e.person_id}`, { token: viewer, version: VERSION })).status, 403);
  assert.is((await app.request('GET', '/events', { token: viewer, version: VERSION, query: { account_id: o.accountId } })).status, 403);
  assert.is((await app.request('POST', '/events', { token: viewer, version: VERSION, body: { account_id: o.accountId, event_name: 'page', user: { anonymous_id: 'x' } } })).status, 403);
  const limited = await makeKey(app.db, { accountId: o.accountId, role: 'moderator' });
  assert.is((await app.request('GET', '/events', { token: limited.secret, version: VERSION, query: { account_id: o.accountId } })).status, 403);
});

t('the official client\'s pin (2026-07-20) and 2025-01-01 track and read the same shapes', async () => {
  const o = await makeOwner(app.db);
  for (const version of ['2026-07-20', '2025-01-01']) {
    const res = await track(o, { value: 3.5, user: { anonymous_id: `pin-${version}` } }, version);
    assert.is(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.value, { amount: 350, currency: 'usd', decimals: 2, display_decimals: 2 });
    const p = await app.request('GET', `/people/${res.body.person_id}`, { token: o.key, version });
    assert.equal([p.status, p.body.data.account_id], [200, o.accountId]);
  }
});

t('the client\'s click ids, cookies and device facts in context are taken and kept; events show the ad and utm fields', async () => {
  const o = await makeOwner(app.db);
  const clicked = await tracked(o, { user: { anonymous_id: 'anon-clicks' },
    context: { utm_campaign: 'spring', gclid: 'Cj0KCQ-abc', fbp: 'fb.1.1700000000.123', user_agent: 'Mozilla/5.0', fingerprint_confidence: 0.93 } });
  assert.equal(clicked.context, { utm_campaign: 'spring' });
  const stored = await app.db('tracked_events').where({ id: clicked.id }).first('context');
  assert.equal(stored.context, { utm_campaign: 'spring', gclid: 'Cj0KCQ-abc', fbp: 'fb.1.1700000000.123', user_agent: 'Mozilla/5.0', fingerprint_confidence: 0.93 });
});

t('page, leave and identify details and the user\'s profile: kept with the event, the profile merged into the person', async () => {
  const o = await makeOwner(app.db);
  const left = await tracked(o, { event_name: 'leave', duration: 42_000, user: { anonymous_id: 'anon-profile', city: 'Lyon', country: 'FR' } });
  assert.equal([left.duration, left.resumed, left.source], [42_000, null, null]);
  assert.equal(left.user, { email: null, name: null, phone: null, first_name: null, last_name: null, city: 'Lyon', country: 'FR' });
  const page = await tracked(o, { resumed: true, user: { anonymous_id: 'anon-profile' } });
  assert.equal([page.resumed, page.user.city], [true, null], 'an event keeps what it carried, nothing more');
  const identified = await tracked(o, { event_name: 'identify', source: 'form', user: { anonymous_id: 'anon-profile',
    email: 'Ada@Example.com', first_name: 'Ada', last_name: 'Lovelace', city: 'London', postal_code: 'W1', birthdate: '1815-12-10', gender: 'female', username: 'ada' } });
  assert.equal([identified.source, identified.user.first_name, identified.user.email], ['form', 'Ada', 'Ada@Example.com']);
  const p = await person(o, left.person_id);
  assert.is(p.status, 200, JSON.stringify(p.body));
  const { first_name, last_name, username, city, state, country, postal_code, birthdate, gender } = p.body.data;
  assert.equal({ first_name, last_name, username, city, state, country, postal_code, birthdate, gender }, {
    first_name: 'Ada', last_name: 'Lovelace', username: 'ada', city: 'London', state: null, country: 'FR', postal_code: 'W1',
    birthdate: '1815-12-10', gender: 'female' }, 'the latest value of each field wins; fields never sent are null');
  const listed = await events(o);
  assert.equal(listed.body.data.map((e: any) => e.user.city), ['London', null, 'Lyon']);
  // Identified as a user who already has a person: the anonymous person's profile fills that person's blanks only.
  const user = await makeUser(app.db);
  await tracked(o, { user: { user_id: user.id, city: 'Paris' } });
  const merged = await tracked(o, { user: { user_id: user.id, anonymous_id: 'anon-profile' } });
  const after = (await person(o, merged.person_id)).body.data;
  assert.equal([after.city, after.first_name, after.country], ['Paris', 'Ada', 'FR']);
  assert.is((await person(o, left.person_id)).status, 404, 'the anonymous person is merged away');
  // Bad values name their field and write nothing.
  const before = await rows(o.accountId);
  for (const [body, param] of [[{ duration: -1 }, 'duration'], [{ source: 'fax' }, 'source'], [{ resumed: 'yes' }, 'resumed']] as const) {
    const res = await track(o, { ...body, user: { anonymous_id: 'anon-profile' } });
    assert.is(res.status, 400, param);
    assert.is(res.body.error.param, param);
  }
  const bad = await track(o, { user: { anonymous_id: 'anon-profile', gender: 'other' } });
  assert.equal([bad.status, bad.body.error.param], [400, 'user.gender']);
  assert.equal(await rows(o.accountId), before);
});

t.run();
