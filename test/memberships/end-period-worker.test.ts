// end_membership_period: a scheduled cancellation takes effect at current_period_end, on the real worker.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { HEAD_VERSION } from '../../runtime/versions.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { endMembershipPeriod } from '../../handlers/memberships/end-period-task.js';
import { makeMembership, waitFor } from './fixtures.js';

const t = suite('end_membership_period on the worker');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: HEAD_VERSION, ...options });
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

t('the worker cancels the membership when its period ends, and emits membership.canceled', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app.db, o.accountId, buyer.id, { periodEnd: new Date(Date.now() + 1500) });
  const res = await call('POST', `/memberships/${m.id}/cancel`, { token: o.key, body: { cancel_at_period_end: true } });
  assert.is(res.body.status, 'active');
  const row = await waitFor(async () => {
    const r = await app.db('memberships').where({ id: m.id }).first();
    return r.status === 'canceled' ? r : null;
  });
  assert.ok(row.canceled_at);
  assert.ok(Date.parse(row.canceled_at) >= Date.parse(res.body.current_period_end));
  const event = await app.db('events').where({ type: 'membership.canceled' }).whereRaw("data->>'id' = ?", [m.id]).first();
  assert.is(event.data.status, 'canceled');
  assert.is((await app.db('members').where({ id: m.memberId }).first()).status, 'left');
});

t('a reversed cancellation or a period not yet over leaves the membership alone', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const reversed = await makeMembership(app.db, o.accountId, buyer.id, { periodEnd: new Date(Date.now() - 1000) });
  await endMembershipPeriod(app.db, reversed.id); // flag never set
  assert.is((await app.db('memberships').where({ id: reversed.id }).first()).status, 'active');
  const later = await makeMembership(app.db, o.accountId, buyer.id, { periodEnd: new Date(Date.now() + 3_600_000) });
  await app.db('memberships').where({ id: later.id }).update({ cancel_at_period_end: true });
  await endMembershipPeriod(app.db, later.id);
  assert.is((await app.db('memberships').where({ id: later.id }).first()).status, 'active');
  await app.db('memberships').where({ id: later.id }).update({ current_period_end: new Date(Date.now() - 1) });
  await endMembershipPeriod(app.db, later.id);
  assert.is((await app.db('memberships').where({ id: later.id }).first()).status, 'canceled');
});

t.run();
