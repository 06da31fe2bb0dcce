// Memberships, members and setup intents through the official client at its default pin 2026-07-20 (company_id,
// renewal_period_*, plural filters, cancel at period end, add_free_days) and at the latest (extend).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type Whop from '@whop/sdk';
import { BadRequestError, NotFoundError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeConfirmationToken, makeMembership } from '../memberships/fixtures.js';
import { lifecycleApi } from '../memberships/lifecycle-fixtures.js';
import { makeSeller } from '../payments/payment-fixtures.js';
import { LATEST, PIN, collectAll, loose, raw, rejects, sdk } from './sdk-helpers.js';

const DAY = 86_400_000;
const t = suite('sdk: memberships, members, setup intents');
let app: TestApp;
let o: Awaited<ReturnType<typeof makeOwner>>;
let pinned: Whop;
let latest: Whop;
t.before(async () => {
  app = await startTestApp({ worker: true });
  o = await makeOwner(app.db, { title: 'Members shop' });
  pinned = sdk(app, o.key);
  latest = sdk(app, o.key, { version: LATEST });
});
t.after(async () => { await app.close(); });

t('memberships.list at 2026-07-20 filters by statuses and user_ids; the latest refuses the plural filters', async () => {
  // A seller of its own on a sandbox clock: m2's renewal fails on a card that needs the buyer (past_due).
  const lifecycle = lifecycleApi(app);
  const o = await lifecycle.shop(await makeSeller(app.db));
  const pinned = sdk(app, o.key);
  const latest = sdk(app, o.key, { version: LATEST });
  const b1 = await makeUser(app.db);
  const m1 = await makeMembership(app, o.accountId, b1.id, { periodEnd: new Date(o.t0 + 90 * 86_400_000) });
  const m2 = await lifecycle.membershipIn(o, 'past_due');
  const b2 = { id: m2.userId };
  const ids = async (query: Record<string, unknown>) =>
    (await collectAll(pinned.memberships.list({ company_id: o.accountId, first: 1, ...query }))).map((m) => m.id).sort();
  assert.equal(await ids({ statuses: ['past_due'] }), [m2.id]);
  assert.equal(await ids({ statuses: ['active', 'past_due'] }), [m1.id, m2.id].sort());
  assert.equal(await ids({ user_ids: [b1.id] }), [m1.id]);
  assert.equal(await ids({ user_ids: [b1.id], statuses: ['past_due'] }), []);
  assert.equal(await ids({ plan_ids: [m2.planId] }), [m2.id]);
  const page = await pinned.memberships.list({ company_id: o.accountId, user_ids: [b2.id] });
  assert.is(raw(page.data[0]).company_id, o.accountId);
  assert.is(page.data[0].status, 'past_due');
  const bad = await rejects(pinned.memberships.list(loose({ company_id: o.accountId, statuses: ['lapsed'] })), BadRequestError, 400);
  assert.match(raw(bad.error).error.param, /^statuses/);
  const head = await rejects(latest.memberships.list(loose({ account_id: o.accountId, statuses: ['active'] })), BadRequestError, 400);
  assert.is(raw(head.error).error.param, 'statuses');
});

t('memberships.retrieve and update (metadata) in the pin\'s shape', async () => {
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const got = await pinned.memberships.retrieve(m.id);
  assert.is(got.id, m.id);
  assert.is(raw(got).company_id, o.accountId);
  assert.is(got.status, 'active');
  assert.is(got.cancel_at_period_end, false);
  assert.ok(got.renewal_period_end);
  assert.not.ok('current_period_end' in raw(got));
  const updated = await pinned.memberships.update(m.id, { metadata: { crm_id: 'abc-123', tier: 'gold' } });
  assert.equal(updated.metadata, { crm_id: 'abc-123', tier: 'gold' });
  assert.equal((await latest.memberships.retrieve(m.id)).metadata, { crm_id: 'abc-123', tier: 'gold' });
  await rejects(pinned.memberships.retrieve('mem_doesnotexist00000'), NotFoundError, 404);
});

t('memberships.cancel ends at the period end by default at 2026-07-20; cancellation_mode immediate ends now', async () => {
  const buyer = await makeUser(app.db);
  const scheduled = await makeMembership(app, o.accountId, buyer.id);
  const atEnd = await pinned.memberships.cancel(scheduled.id);
  assert.is(atEnd.status, 'active');
  assert.is(atEnd.cancel_at_period_end, true);
  const now = await makeMembership(app, o.accountId, buyer.id);
  const ended = await pinned.memberships.cancel(now.id, { cancellation_mode: 'immediate' });
  assert.is(ended.status, 'canceled');
  assert.ok(ended.canceled_at);
  const explicit = await makeMembership(app, o.accountId, buyer.id);
  assert.is((await pinned.memberships.cancel(explicit.id, { cancellation_mode: 'at_period_end' })).cancel_at_period_end, true);
  // The latest ended access immediately by default and no longer knows cancellation_mode.
  const newer = await makeMembership(app, o.accountId, buyer.id);
  assert.is((await latest.memberships.cancel(newer.id)).status, 'canceled');
});

t('memberships.addFreeDays({ free_days }) at 2026-07-20; at the latest it is a NotFoundError and extend works', async () => {
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const before = Date.parse((await app.db('memberships').where({ id: m.id }).first()).current_period_end);
  const added = await pinned.memberships.addFreeDays(m.id, { free_days: 3 });
  assert.is(Date.parse(added.renewal_period_end!) - before, 3 * DAY);
  const gone = await rejects(latest.memberships.addFreeDays(m.id, { free_days: 1 }), NotFoundError, 404);
  assert.is(raw(gone.error).error.type, 'not_found');
  // No SDK method for extend: the client's generic request method.
  const extended = await latest.post<Record<string, any>>(`/memberships/${m.id}/extend`, { body: { days: 2 } });
  assert.is(extended.id, m.id);
  assert.is(Date.parse(extended.current_period_end) - before, 5 * DAY);
  await rejects(pinned.post(`/memberships/${m.id}/extend`, { body: { days: 1 } }), NotFoundError, 404);
  assert.is(Date.parse((await pinned.memberships.retrieve(m.id)).renewal_period_end!) - before, 5 * DAY);
});

t('members.list and members.retrieve at 2026-07-20 (company_id)', async () => {
  const shop = await makeOwner(app.db);
  const client = sdk(app, shop.key);
  const [b1, b2] = [await makeUser(app.db), await makeUser(app.db)];
  const m1 = await makeMembership(app, shop.accountId, b1.id);
  const m2 = await makeMembership(app, shop.accountId, b2.id);
  const members = await collectAll(client.members.list({ company_id: shop.accountId, first: 1 }));
  assert.equal(members.map((m) => m.id).sort(), [m1.memberId, m2.memberId].sort());
  assert.equal(members.map((m) => m.user?.id).sort(), [b1.id, b2.id].sort());
  assert.ok(members.every((m) => raw(m).company_id === shop.accountId));
  assert.equal((await client.members.list({ company_id: shop.accountId, user_ids: [b2.id] })).data.map((m) => m.id), [m2.memberId]);
  assert.is((await client.members.list({ company_id: shop.accountId, statuses: ['left'] })).data.length, 0);
  const one = await client.members.retrieve(m1.memberId);
  assert.is(one.id, m1.memberId);
  assert.is(raw(one).company_id, shop.accountId);
  assert.is(one.user?.id, b1.id);
  await rejects(pinned.members.retrieve(m1.memberId), NotFoundError, 404); // another account's member
});

t('setupIntents.list and retrieve at 2026-07-20: embedded company and member, error_message', async () => {
  const buyer = await makeUser(app.db);
  const ctok = await makeConfirmationToken(app, o.accountId);
  const created = await app.request('POST', '/setup_intents', {
    token: o.key, version: PIN, body: { company_id: o.accountId, confirmation_token: ctok, user_id: buyer.id },
  });
  assert.is(created.status, 200, JSON.stringify(created.body));
  const declined = await app.request('POST', '/setup_intents', {
    token: o.key, version: PIN, body: { company_id: o.accountId, confirmation_token: await makeConfirmationToken(app, o.accountId, 'declined'), user_id: buyer.id },
  });
  const listed = await collectAll(pinned.setupIntents.list({ company_id: o.accountId, first: 1 }));
  assert.equal(listed.map((s) => s.id).sort(), [created.body.id, declined.body.id].sort());
  const got = await pinned.setupIntents.retrieve(created.body.id);
  assert.is(got.id, created.body.id);
  assert.is(got.status, 'succeeded');
  assert.equal(got.company, { id: o.accountId });
  assert.ok(got.member?.id);
  assert.ok(got.payment_method?.id);
  assert.is(got.error_message, null);
  const failed = await pinned.setupIntents.retrieve(declined.body.id);
  assert.is(failed.status, 'canceled');
  assert.ok(typeof failed.error_message === 'string' && failed.error_message.length > 0);
  const head = await latest.setupIntents.retrieve(created.body.id);
  assert.is(raw(head).member_id, got.member?.id);
  const refused = await rejects(latest.setupIntents.list({ company_id: o.accountId }), BadRequestError, 400);
  assert.is(raw(refused.error).error.param, 'company_id');
});

t.run();
