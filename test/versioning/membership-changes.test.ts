// Implemented changelog entries on setup intents (22) and memberships and members (53), before and after each:
// endpoints that did not exist natively, and the older payload shapes webhooks of older pins still receive.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeConfirmationToken, makeMembership } from '../memberships/fixtures.js';
import { lifecycleApi } from '../memberships/lifecycle-fixtures.js';
import { makeSeller } from '../payments/payment-fixtures.js';
import { renderAt } from '../../runtime/render.js';

const t = suite('versioning: setup intents, memberships and members');
let app: TestApp;
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

t('#22 before native setup intents: embedded references, error_message, company_id, creation 200', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const ctok = await makeConfirmationToken(app, o.accountId);
  const before = await app.request('POST', '/setup_intents', {
    token: o.key, version: '2026-07-20', body: { company_id: o.accountId, confirmation_token: ctok, user_id: buyer.id },
  });
  assert.is(before.status, 200, JSON.stringify(before.body));
  // Saved during the request at that pin (entry 13's flag), and shown with embedded references.
  assert.is(before.body.status, 'succeeded');
  assert.equal(before.body.company, { id: o.accountId });
  assert.ok(before.body.member?.id && before.body.payment_method?.id);
  assert.is(before.body.error_message, null);
  for (const gone of ['account_id', 'member_id', 'payment_method_id', 'last_setup_error', 'checkout_configuration_id']) assert.not.ok(gone in before.body, gone);
  const listed = await app.request('GET', '/setup_intents', { token: o.key, version: '2026-07-20', query: { company_id: o.accountId } });
  assert.equal(listed.body.data.map((x: any) => x.id), [before.body.id]);
  assert.equal(listed.body.data[0].company, { id: o.accountId });
  const declined = await makeConfirmationToken(app, o.accountId, 'declined');
  const failed = await app.request('POST', '/setup_intents', {
    token: o.key, version: '2026-07-20', body: { company_id: o.accountId, confirmation_token: declined, user_id: buyer.id },
  });
  assert.is(failed.body.status, 'canceled');
  assert.ok(typeof failed.body.error_message === 'string' && failed.body.error_message.length > 0);
  const ctok2 = await makeConfirmationToken(app, o.accountId);
  const created = await app.request('POST', '/setup_intents', { token: o.key, version: '2026-08-25', body: { account_id: o.accountId, confirmation_token: ctok2, user_id: buyer.id } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const old = renderAt('SetupIntent', created.body, '2026-08-21') as any;
  assert.equal(old.payment_method, { id: created.body.payment_method_id });
  assert.equal(old.member, { id: created.body.member_id });
  assert.equal((await app.request('GET', `/setup_intents/${created.body.id}`, { token: o.key, version: '2026-08-21' })).body.member, old.member);
  assert.is(renderAt('SetupIntent', created.body, '2026-08-25'), created.body);
});

t('#53 before 2026-07-23 memberships and members answer in their older shape', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const at = (version: string, path: string, query?: Record<string, any>) => app.request('GET', path, { token: o.key, version, query });
  const now = await at('2026-07-23', `/memberships/${m.id}`);
  assert.is(now.status, 200);
  for (const version of ['2026-07-22', '2026-07-20', '2025-01-01']) {
    const old = await at(version, `/memberships/${m.id}`);
    assert.is(old.status, 200, version);
    assert.is(old.body.company_id, o.accountId);
    assert.is(old.body.renewal_period_end, now.body.current_period_end);
    for (const newer of ['account_id', 'current_period_end', 'current_period_start']) assert.not.ok(newer in old.body, newer);
    assert.is(old.body.cancel_at_period_end, false);
  }
  const member = await at('2026-07-20', `/members/${m.memberId}`);
  assert.is(member.status, 200);
  assert.is(member.body.company_id, o.accountId);
  assert.equal(renderAt('Membership', now.body, '2026-07-20'), (await at('2026-07-20', `/memberships/${m.id}`)).body);
});

t('#53 older list filters are plural and really filter; the latest refuses them', async () => {
  const lifecycle = lifecycleApi(app);
  const o = await lifecycle.shop(await makeSeller(app.db));
  const b1 = await makeUser(app.db);
  // m1's period outlasts the clock's advance; m2's renewal fails on a card that needs the buyer: past_due.
  const m1 = await makeMembership(app, o.accountId, b1.id, { periodEnd: new Date(o.t0 + 90 * 86_400_000) });
  const m2 = await lifecycle.membershipIn(o, 'past_due');
  const list = (version: string, path: string, query: Record<string, any>) =>
    app.request('GET', path, { token: o.key, version, query: { company_id: o.accountId, ...query } });
  const ids = (res: any) => res.body.data.map((x: any) => x.id).sort();
  assert.equal(ids(await list('2026-07-20', '/memberships', { statuses: ['past_due'] })), [m2.id]);
  assert.equal(ids(await list('2026-07-20', '/memberships', { statuses: ['active', 'past_due'] })), [m1.id, m2.id].sort());
  assert.equal(ids(await list('2026-07-20', '/memberships', { user_ids: [b1.id] })), [m1.id]);
  assert.equal(ids(await list('2026-07-20', '/memberships', { plan_ids: [m2.planId] })), [m2.id]);
  assert.equal(ids(await list('2026-07-20', '/memberships', { product_ids: [m1.productId, m2.productId] })), [m1.id, m2.id].sort());
  assert.equal(ids(await list('2026-07-20', '/members', { statuses: ['left'] })), []);
  assert.is((await list('2026-07-20', '/members', { statuses: ['joined'] })).body.data.length, 2);
  const bad = await list('2026-07-20', '/memberships', { statuses: ['lapsed'] });
  assert.is(bad.status, 400);
  assert.match(bad.body.error.param, /^statuses/);
  const head = await app.request('GET', '/memberships', { token: o.key, version: '2026-07-23', query: { account_id: o.accountId, statuses: ['active'] } });
  assert.is(head.status, 400);
  assert.is(head.body.error.param, 'statuses');
});

t('#53 cancel ended access at the period end by default before 2026-07-23, immediately from it', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const cancel = (version: string, id: string, body: unknown) =>
    app.request('POST', `/memberships/${id}/cancel`, { token: o.key, version, body });
  const older = await makeMembership(app, o.accountId, buyer.id);
  const scheduled = await cancel('2026-07-20', older.id, {});
  assert.is(scheduled.status, 200, JSON.stringify(scheduled.body));
  assert.is(scheduled.body.status, 'active');
  assert.is(scheduled.body.cancel_at_period_end, true);
  const immediate = await makeMembership(app, o.accountId, buyer.id);
  const ended = await cancel('2026-07-20', immediate.id, { cancellation_mode: 'immediate' });
  assert.is(ended.body.status, 'canceled');
  const newer = await makeMembership(app, o.accountId, buyer.id);
  assert.is((await cancel('2026-07-23', newer.id, {})).body.status, 'canceled');
  assert.is((await cancel('2026-07-23', immediate.id, { cancellation_mode: 'immediate' })).status, 400);
  assert.is((await cancel('2026-07-20', newer.id, { cancel_at_period_end: true })).body.error.param, 'cancel_at_period_end');
});

t('#53 add_free_days with free_days before 2026-07-23; extend with days from it', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id);
  const before = Date.parse((await app.db('memberships').where({ id: m.id }).first()).current_period_end);
  const added = await app.request('POST', `/memberships/${m.id}/add_free_days`, { token: o.key, version: '2026-07-20', body: { free_days: 3 } });
  assert.is(added.status, 200, JSON.stringify(added.body));
  assert.is(Date.parse(added.body.renewal_period_end) - before, 3 * 86_400_000);
  assert.is((await app.request('POST', `/memberships/${m.id}/extend`, { token: o.key, version: '2026-07-20', body: { days: 1 } })).status, 404);
  assert.is((await app.request('POST', `/memberships/${m.id}/add_free_days`, { token: o.key, version: '2026-07-23', body: { free_days: 1 } })).status, 404);
  const extended = await app.request('POST', `/memberships/${m.id}/extend`, { token: o.key, version: '2026-07-23', body: { days: 1 } });
  assert.is(Date.parse(extended.body.current_period_end) - before, 4 * 86_400_000);
});

t.run();
