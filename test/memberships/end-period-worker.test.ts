// The period sweep at real time (the cron's): a scheduled cancellation takes effect once current_period_end has
// passed, on the real worker; jobs of the old end_membership_period task still queued delegate to the period step.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { endMembershipPeriod } from '../../handlers/memberships/end-period-task.js';
import { membershipPeriodSweep } from '../../handlers/memberships/period-sweep.js';
import { makeMembership, waitFor } from './fixtures.js';

const t = suite('membership period sweep on the worker');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t('the sweep queues the due step; the worker cancels the membership at its period end and emits membership.canceled', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id, { periodEnd: new Date(Date.now() + 1500) });
  const res = await call('POST', `/memberships/${m.id}/cancel`, { token: o.key, body: { cancel_at_period_end: true } });
  assert.is(res.body.status, 'active');
  await membershipPeriodSweep.run(app.db); // not due yet: nothing queued
  assert.is((await app.db('memberships').where({ id: m.id }).first()).status, 'active');
  await sleep(1600);
  await membershipPeriodSweep.run(app.db); // what the cron runs every minute
  const row = await waitFor(async () => {
    const r = await app.db('memberships').where({ id: m.id }).first();
    return r.status === 'canceled' ? r : null;
  });
  assert.ok(row.canceled_at);
  assert.is(row.due_at, null);
  assert.ok(Date.parse(row.canceled_at) >= Date.parse(res.body.current_period_end));
  const event = await app.db('events').where({ type: 'membership.canceled' }).whereRaw("data->>'id' = ?", [m.id]).first();
  assert.is(event.data.status, 'canceled');
  assert.is((await app.db('members').where({ id: m.memberId }).first()).status, 'left');
});

t('an old end_membership_period job does nothing before the period end, and a reversed cancellation is not canceled', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const later = await makeMembership(app, o.accountId, buyer.id, { periodEnd: new Date(Date.now() + 3_600_000) });
  await call('POST', `/memberships/${later.id}/cancel`, { token: o.key, body: { cancel_at_period_end: true } });
  await endMembershipPeriod(app.db, later.id);
  assert.is((await app.db('memberships').where({ id: later.id }).first()).status, 'active');
  const soon = await makeMembership(app, o.accountId, buyer.id, { periodEnd: new Date(Date.now() + 800) });
  await call('POST', `/memberships/${soon.id}/cancel`, { token: o.key, body: { cancel_at_period_end: true } });
  await call('POST', `/memberships/${soon.id}/uncancel`, { token: o.key });
  await call('POST', `/memberships/${soon.id}/pause`, { token: o.key }); // not due while paused: nothing happens
  await sleep(900);
  await endMembershipPeriod(app.db, soon.id);
  assert.is((await app.db('memberships').where({ id: soon.id }).first()).status, 'paused');
});

t.run();
