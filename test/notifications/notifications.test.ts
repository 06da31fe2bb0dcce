// Notifications over HTTP: platform events notify the users they concern (in the event's transaction), the feed and
// its paging, badges, mark one and all read, topics and preferences, app sends and their per-app limit.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { pay, VERSION } from '../payments/payment-fixtures.js';
import { NETWORK_CARDS, paidWith, seller } from '../disputes/dispute-fixtures.js';
import { payoutOwner, saveMethod, settle } from '../payouts/payout-fixtures.js';
import { TEST_DESTINATIONS } from '../../sandbox/payout_rail/index.js';
import { recordEvent } from '../../generated/events.js';
import { joinTeam } from '../auth/team.js';

const t = suite('notifications');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const OLD = '2025-01-01';
const call = (method: string, path: string, token: string, o: { body?: unknown; query?: Record<string, string | number | boolean>; version?: string } = {}) =>
  app.request(method, path, { token, version: o.version ?? VERSION, body: o.body, query: o.query });
const feed = async (token: string, query: Record<string, string | number | boolean> = {}) => {
  const res = await call('GET', '/notifications', token, { query });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
};

t('a payment received and a dispute opened notify the account\'s active team members, not others', async () => {
  const s = await seller(app);
  const invited = await makeUser(app.db);
  const add = await call('POST', '/team_members', s.token, { body: { account_id: s.accountId, user_id: invited.id, role: 'viewer' } });
  assert.is(add.status, 201, JSON.stringify(add.body));
  const outsider = await makeOwner(app.db);
  const p = await pay(app, s, { amount: 2_500, currency: 'usd' });
  const mine = (await feed(s.token, { topic_id: 'ntop_paymentreceived' })).data;
  assert.is(mine.length, 1);
  assert.equal([mine[0].type, mine[0].topic_id, mine[0].account_id, mine[0].title, mine[0].read, mine[0].rest_path],
    ['payment_received', 'ntop_paymentreceived', s.accountId, 'Payment received', false, p.id]);
  assert.match(mine[0].content, /A payment of 25\.00 USD to .* succeeded\./);
  assert.is((await feed(invited.token, { topic_id: 'ntop_paymentreceived' })).data.length, 0, 'an invited member is not on the team yet');
  assert.is((await feed(outsider.token)).data.length, 0);

  await paidWith(app, s, NETWORK_CARDS.chargeback);
  const disputes = (await feed(s.token, { topic_id: 'ntop_disputeopened' })).data;
  assert.is(disputes.length, 1);
  assert.match(disputes[0].content, /A buyer disputed 100\.00 USD paid to .*; respond before \d{4}-/);
});

t('a failed payout notifies the team; a team invitation notifies the invitee (and accepting reads it)', async () => {
  const o = await payoutOwner(app, 100_000);
  const failing = await saveMethod(app, o.key, { account_id: o.accountId }, TEST_DESTINATIONS.fails);
  const payout = await call('POST', '/payouts', o.key, { body: { account_id: o.accountId, payout_method_id: failing.id, amount: '10.00' } });
  assert.is(payout.status, 201, JSON.stringify(payout.body));
  assert.is(await settle(app, payout.body.id), 'failed');
  const failed = (await feed(o.token, { topic_id: 'ntop_payoutfailed' })).data;
  assert.equal(failed.map((n: { rest_path: string }) => n.rest_path), [payout.body.id]);

  const u = await makeUser(app.db);
  const add = await call('POST', '/team_members', o.token, { body: { account_id: o.accountId, user_id: u.id, role: 'moderator' } });
  const invitation = (await feed(u.token)).data;
  assert.is(invitation.length, 1);
  assert.equal([invitation[0].type, invitation[0].data.team_member_id, invitation[0].data.role], ['team_invitation', add.body.id, 'moderator']);
  const accept = await call('POST', `/team_members/${add.body.id}/accept`, u.token);
  assert.is(accept.status, 200, JSON.stringify(accept.body));
  assert.is((await feed(u.token)).data[0].read, true);
});

t('an event whose transaction rolls back notifies nobody; a topic turned off is skipped', async () => {
  const o = await makeOwner(app.db);
  await app.db.transaction(async (trx) => {
    await recordEvent(trx, 'payout.failed', o.accountId, { id: 'wdrl_rolledback' });
    throw new Error('roll back');
  }).catch(() => undefined);
  assert.is((await feed(o.token)).data.length, 0);
  const off = await call('PATCH', '/notifications/preferences/ntop_payoutfailed', o.token, { body: { enabled: false } });
  assert.equal(off.body, { object: 'notification_preference', id: 'ntop_payoutfailed', topic_id: 'ntop_payoutfailed', identifier: 'payout_failed', enabled: false });
  await recordEvent(app.db, 'payout.failed', o.accountId, { id: 'wdrl_skipped' });
  assert.is((await feed(o.token)).data.length, 0);
  await call('PATCH', '/notifications/preferences/ntop_payoutfailed', o.token, { body: { enabled: true } });
  await recordEvent(app.db, 'payout.failed', o.accountId, { id: 'wdrl_heard' });
  assert.equal((await feed(o.token)).data.map((n: { rest_path: string }) => n.rest_path), ['wdrl_heard']);
});

async function appSend(key: string, body: Record<string, unknown>) {
  return app.request('POST', '/notifications', { token: key, version: VERSION, body });
}

t('an app notifies a team (or named members); the feed pages newest first; badges; mark one and all read', async () => {
  const o = await makeOwner(app.db);
  const mate = await makeUser(app.db);
  await joinTeam(app, o.token, o.accountId, 'viewer', [], mate);
  for (let i = 1; i <= 3; i++) {
    const res = await appSend(o.key, { company_id: o.accountId, title: `Hello ${i}`, content: `Body ${i}`, subtitle: 'sub', rest_path: `/x/${i}`, icon_user_id: mate.id });
    assert.equal([res.status, res.body], [200, { success: true, recipients: 2 }]);
  }
  const only = await appSend(o.key, { company_id: o.accountId, title: 'Just you', content: 'Private', user_ids: [mate.id] });
  assert.equal(only.body, { success: true, recipients: 1 });

  const page1 = await feed(mate.token, { first: 2 });
  assert.equal(page1.data.map((n: { title: string }) => n.title), ['Just you', 'Hello 3']);
  assert.is(page1.page_info.has_next_page, true);
  const page2 = await feed(mate.token, { first: 2, after: page1.page_info.end_cursor });
  assert.equal(page2.data.map((n: { title: string }) => n.title), ['Hello 2', 'Hello 1']);
  assert.equal([page2.data[0].subtitle, page2.data[0].content, page2.data[0].rest_path, page2.data[0].icon_user_id, page2.data[0].type, page2.data[0].data],
    ['sub', 'Body 2', '/x/2', mate.id, 'app_message', {}]);
  assert.is((await feed(o.token)).data.length, 3);

  const badge = await call('GET', '/notifications/unread_counts', mate.token);
  assert.equal(badge.body, { object: 'notification_badge', unread: 4, topics: [{ topic_id: 'ntop_appmessage', identifier: 'app_message', unread: 4 }] });
  const one = await call('POST', `/notifications/${page1.data[1].id}/read`, mate.token);
  assert.equal([one.status, one.body.read, !!one.body.read_at], [200, true, true]);
  const again = await call('POST', `/notifications/${page1.data[1].id}/read`, mate.token);
  assert.is(again.body.read_at, one.body.read_at, 'marking again changes nothing');
  assert.is((await feed(mate.token, { unread: true })).data.length, 3);
  // Read: the one just marked, and the team invitation that accepting it read.
  assert.equal((await feed(mate.token, { unread: false })).data.map((n: { type: string }) => n.type), ['app_message', 'team_invitation']);
  const notMine = await call('POST', `/notifications/${page1.data[1].id}/read`, o.token);
  assert.equal([notMine.status, notMine.body.error.type], [404, 'not_found']);
  const all = await call('POST', '/notifications/read_all', mate.token, { body: { topic_id: 'ntop_paymentreceived' } });
  assert.equal(all.body, { object: 'notifications_marked', marked: 0 });
  const rest = await call('POST', '/notifications/read_all', mate.token, { body: {} });
  assert.equal(rest.body, { object: 'notifications_marked', marked: 3 });
  assert.equal((await call('GET', '/notifications/unread_counts', mate.token)).body, { object: 'notification_badge', unread: 0, topics: [] });
  assert.is((await call('GET', '/notifications/unread_counts', o.token)).body.unread, 3, 'another user\'s reads are theirs');
});

t('app sends: rules and errors', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const stranger = await makeUser(app.db);
  const body = { company_id: o.accountId, title: 'T', content: 'C' };
  const outside = await appSend(o.key, { ...body, user_ids: [stranger.id] });
  assert.equal([outside.status, outside.body.error.param], [400, 'user_ids']);
  const icon = await appSend(o.key, { ...body, icon_user_id: 'user_nobody' });
  assert.equal([icon.status, icon.body.error.param], [400, 'icon_user_id']);
  const missing = await appSend(o.key, { company_id: o.accountId, title: 'T' });
  assert.equal([missing.status, missing.body.error.param], [400, 'content']);
  const hidden = await appSend(o.key, { ...body, company_id: other.accountId });
  assert.is(hidden.status, 404);
  const viewer = (await makeKey(app.db, { accountId: o.accountId, role: 'viewer' })).secret;
  const refused = await appSend(viewer, body);
  assert.equal([refused.status, refused.body.error.type], [403, 'permission_denied']);
  const byUser = await app.request('POST', '/notifications', { token: o.token, version: VERSION, body });
  assert.is(byUser.status, 403, 'apps send with their API key');
  await call('PATCH', '/notifications/preferences/ntop_appmessage', o.token, { body: { enabled: false } });
  assert.equal((await appSend(o.key, body)).body, { success: true, recipients: 0 });
  // Nothing is written by a refused send.
  assert.is((await app.db('notifications').where({ account_id: o.accountId })).length, 0);
});

t('app sends are limited per app (API key): NOTIFICATION_SENDS_PER_MINUTE in any minute, then 429', async () => {
  const o = await makeOwner(app.db);
  const second = (await makeKey(app.db, { accountId: o.accountId, role: 'admin' })).secret;
  process.env.NOTIFICATION_SENDS_PER_MINUTE = '3';
  try {
    const body = { company_id: o.accountId, title: 'T', content: 'C' };
    for (let i = 0; i < 3; i++) assert.is((await appSend(o.key, body)).status, 200);
    const limited = await appSend(o.key, body);
    assert.equal([limited.status, limited.body.error.type], [429, 'rate_limited']);
    const wait = Number(limited.headers.get('retry-after'));
    assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
    assert.is((await appSend(second, body)).status, 200, 'another app has its own budget');
    // A minute later the budget is whole again: the account goes on a sandbox clock standing 61 seconds on, which its
    // key's requests (and the limit's window) then run at.
    const clock = await call('POST', '/sandbox/clocks', o.key, { body: { account_id: o.accountId, frozen_time: new Date(Date.now() + 61_000).toISOString() } });
    assert.is(clock.status, 201, JSON.stringify(clock.body));
    assert.is((await appSend(o.key, body)).status, 200);
  } finally {
    delete process.env.NOTIFICATION_SENDS_PER_MINUTE;
  }
});

t('topics and preferences', async () => {
  const u = await makeUser(app.db);
  const topics = await call('GET', '/notifications/topics', u.token);
  assert.is(topics.status, 200);
  assert.equal(topics.body.data.map((x: { identifier: string }) => x.identifier),
    ['payment_received', 'payout_failed', 'dispute_opened', 'team_invitation', 'transfer_invitation', 'cardholder_onboarding', 'card_transaction', 'app_message',
      'webhook_disabled', 'deprecated_usage']);
  assert.equal(topics.body.data[0], { id: 'ntop_paymentreceived', object: 'notification_topic', identifier: 'payment_received', name: 'Payment received', description: topics.body.data[0].description });
  const o = await makeOwner(app.db);
  assert.is((await call('GET', '/notifications/topics', o.key, { query: { first: 3 } })).body.data.length, 3, 'API keys read the catalogue too');
  const prefs = await call('GET', '/notifications/preferences', u.token);
  assert.ok(prefs.body.data.every((p: { enabled: boolean }) => p.enabled));
  await call('PATCH', '/notifications/preferences/ntop_disputeopened', u.token, { body: { enabled: false } });
  const after = (await call('GET', '/notifications/preferences', u.token)).body.data;
  assert.equal(after.filter((p: { enabled: boolean }) => !p.enabled).map((p: { topic_id: string }) => p.topic_id), ['ntop_disputeopened']);
  const unknown = await call('PATCH', '/notifications/preferences/ntop_nope', u.token, { body: { enabled: false } });
  assert.equal([unknown.status, unknown.body.error.param], [404, 'topic_id']);
  const bad = await call('PATCH', '/notifications/preferences/ntop_disputeopened', u.token, { body: { enabled: 'no' } });
  assert.equal([bad.status, bad.body.error.param], [400, 'enabled']);
  const unknownAll = await call('POST', '/notifications/read_all', u.token, { body: { topic_id: 'ntop_nope' } });
  assert.equal([unknownAll.status, unknownAll.body.error.param], [404, 'topic_id']);
  const keyFeed = await call('GET', '/notifications', o.key);
  assert.is(keyFeed.status, 403, 'a feed is a user\'s: API keys have none');
  const anonymous = await app.request('GET', '/notifications', { version: VERSION });
  assert.is(anonymous.status, 401);
});

t('at the oldest pin the operations answer the same', async () => {
  const o = await makeOwner(app.db);
  const send = await app.request('POST', '/notifications', { token: o.key, version: OLD, body: { company_id: o.accountId, title: 'Old', content: 'Pin' } });
  assert.equal([send.status, send.body], [200, { success: true, recipients: 1 }]);
  const old = await call('GET', '/notifications', o.token, { version: OLD });
  assert.equal([old.status, old.body.data[0].title], [200, 'Old']);
  assert.is((await call('GET', '/notifications/topics', o.token, { version: OLD })).status, 200);
  assert.is((await call('GET', '/notifications/unread_counts', o.token, { version: OLD })).body.unread, 1);
});

t.run();
