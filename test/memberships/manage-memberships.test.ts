// PATCH, cancel, uncancel, extend, pause and resume: the lifecycle, its refusals and its events.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeMembership } from './fixtures.js';

const t = suite('managing memberships');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

async function setup(options: Parameters<typeof makeMembership>[3] = {}) {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id, options);
  return { o, buyer, m };
}
const lastEvent = async (type: string, id: string) =>
  (await app.db('events').where({ type }).whereRaw("data->>'id' = ?", [id]).orderBy('created_at', 'desc').first())?.data;

t('PATCH metadata merges keys, null removes one, {} clears all; membership.updated is emitted', async () => {
  const { o, m } = await setup();
  const first = await call('PATCH', `/memberships/${m.id}`, { token: o.key, body: { metadata: { hwid: 'abc', seats: 3 } } });
  assert.is(first.status, 200);
  assert.equal(first.body.metadata, { hwid: 'abc', seats: 3 });
  const merged = await call('PATCH', `/memberships/${m.id}`, { token: o.key, body: { metadata: { seats: null, plan: 'pro' } } });
  assert.equal(merged.body.metadata, { hwid: 'abc', plan: 'pro' });
  assert.equal((await lastEvent('membership.updated', m.id)).metadata, { hwid: 'abc', plan: 'pro' });
  const cleared = await call('PATCH', `/memberships/${m.id}`, { token: o.key, body: { metadata: {} } });
  assert.equal(cleared.body.metadata, {});
  const stored = await app.db('memberships').where({ id: m.id }).first();
  assert.equal(stored.metadata, {});
});

t('PATCH by license key (the validate_license flow) and body validation', async () => {
  const { o, m } = await setup({ includesLicense: true });
  const res = await call('PATCH', `/memberships/${m.licenseKey}`, { token: o.key, body: { metadata: { hardware_id: 'hw-1' } } });
  assert.is(res.status, 200);
  assert.is(res.body.id, m.id);
  assert.equal(res.body.metadata, { hardware_id: 'hw-1' });
  const unknown = await call('PATCH', `/memberships/${m.id}`, { token: o.key, body: { status: 'canceled' } });
  assert.is(unknown.status, 400);
  assert.is(unknown.body.error.param, 'status');
  const badMeta = await call('PATCH', `/memberships/${m.id}`, { token: o.key, body: { metadata: { nested: { a: 1 } } } });
  assert.is(badMeta.status, 400);
});

t('every action takes a license key as its id, as it always did; the spec declares each such id a secret', async () => {
  const { o, m } = await setup({ includesLicense: true });
  const pause = await call('POST', `/memberships/${m.licenseKey}/pause`, { token: o.key });
  assert.is(pause.status, 200, JSON.stringify(pause.body));
  assert.is(pause.body.id, m.id);
  assert.is(pause.body.status, 'paused');
  assert.is((await call('POST', `/memberships/${m.licenseKey}/resume`, { token: o.key })).body.status, 'active');
  assert.is((await call('POST', `/memberships/${m.licenseKey}/extend`, { token: o.key, body: { days: 1 } })).status, 200);
  assert.is((await call('POST', `/memberships/${m.licenseKey}/cancel`, { token: o.key, body: { cancel_at_period_end: true } })).body.cancel_at_period_end, true);
  assert.is((await call('POST', `/memberships/${m.licenseKey}/uncancel`, { token: o.key })).body.cancel_at_period_end, false);
  const { operations } = await import('../../generated/routes.js');
  const takingKeys = operations.filter((op) => op.path.startsWith('/memberships/:id'));
  assert.ok(takingKeys.length >= 7);
  for (const op of takingKeys) assert.equal(op.secretParams, ['id'], `${op.id} declares its id a secret`);
});

t('membership events store no license key; the membership shows it on every read', async () => {
  const { o, m } = await setup({ includesLicense: true });
  const paused = await call('POST', `/memberships/${m.id}/pause`, { token: o.key });
  assert.is(paused.body.license_key, m.licenseKey);
  assert.is((await lastEvent('membership.activated', m.id)).license_key, null);
  assert.is((await lastEvent('membership.paused', m.id)).license_key, null);
  const stored = await app.db('memberships').where({ id: m.id }).first();
  assert.not.ok(JSON.stringify(stored).includes(m.licenseKey!), 'the row holds it sealed and hashed');
});

t('a license key sealed under another FILE_SIGNING_SECRET shows null, and still finds its membership', async () => {
  const { o, m } = await setup({ includesLicense: true });
  const before = process.env.FILE_SIGNING_SECRET;
  process.env.FILE_SIGNING_SECRET = 'another secret than the one that sealed the key';
  try {
    const res = await call('GET', `/memberships/${m.licenseKey}`, { token: o.key });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.id, m.id);
    assert.is(res.body.license_key, null);
  } finally {
    if (before === undefined) delete process.env.FILE_SIGNING_SECRET;
    else process.env.FILE_SIGNING_SECRET = before;
  }
});

t('cancel without cancel_at_period_end ends access now: canceled, canceled_at, membership.canceled, member left', async () => {
  const { o, m } = await setup();
  const res = await call('POST', `/memberships/${m.id}/cancel`, { token: o.key });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'canceled');
  assert.ok(res.body.canceled_at);
  assert.is(res.body.cancel_at_period_end, false);
  assert.is((await lastEvent('membership.canceled', m.id)).status, 'canceled');
  const member = await app.db('members').where({ id: m.memberId }).first();
  assert.is(member.status, 'left');
  assert.ok(member.left_at);
  const again = await call('POST', `/memberships/${m.id}/cancel`, { token: o.key, body: { cancel_at_period_end: false } });
  assert.is(again.status, 400);
  assert.is(again.body.error.type, 'invalid_state');
  assert.is(again.body.error.param, 'status');
});

t('a member with another live membership stays joined when one is canceled', async () => {
  const { o, buyer, m } = await setup();
  await makeMembership(app, o.accountId, buyer.id);
  await call('POST', `/memberships/${m.id}/cancel`, { token: o.key });
  assert.is((await app.db('members').where({ id: m.memberId }).first()).status, 'joined');
});

t('cancel_at_period_end: stays active with the flag, due at the period end (no job of its own)', async () => {
  const { o, m } = await setup();
  const res = await call('POST', `/memberships/${m.id}/cancel`, { token: o.key, body: { cancel_at_period_end: true } });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'active');
  assert.is(res.body.cancel_at_period_end, true);
  assert.is(res.body.canceled_at, null);
  assert.is((await lastEvent('membership.updated', m.id)).cancel_at_period_end, true);
  const stored = await app.db('memberships').where({ id: m.id }).first('due_at');
  assert.is(Date.parse(stored.due_at), Date.parse(res.body.current_period_end));
  assert.is((await app.db('graphile_worker.jobs').where({ key: `end_membership_period:${m.id}` })).length, 0);
});

t('cancel_at_period_end on a membership without a period end is 400 naming the flag', async () => {
  const { o, m } = await setup({ periodEnd: null });
  const res = await call('POST', `/memberships/${m.id}/cancel`, { token: o.key, body: { cancel_at_period_end: true } });
  assert.is(res.status, 400);
  assert.is(res.body.error.type, 'invalid_request');
  assert.is(res.body.error.param, 'cancel_at_period_end');
});

t('uncancel reverses a scheduled cancellation; without one it is 400 invalid_state', async () => {
  const { o, m } = await setup();
  const none = await call('POST', `/memberships/${m.id}/uncancel`, { token: o.key });
  assert.is(none.status, 400);
  assert.is(none.body.error.type, 'invalid_state');
  assert.is(none.body.error.param, 'cancel_at_period_end');
  await call('POST', `/memberships/${m.id}/cancel`, { token: o.key, body: { cancel_at_period_end: true } });
  const res = await call('POST', `/memberships/${m.id}/uncancel`, { token: o.key });
  assert.is(res.status, 200);
  assert.is(res.body.cancel_at_period_end, false);
  assert.is(res.body.status, 'active');
  const { o: o2, m: ended } = await setup();
  await call('POST', `/memberships/${ended.id}/cancel`, { token: o2.key });
  const late = await call('POST', `/memberships/${ended.id}/uncancel`, { token: o2.key });
  assert.is(late.status, 400);
  assert.is(late.body.error.param, 'status');
});

t('extend adds days to current_period_end and emits membership.extended; bounds are 400', async () => {
  const { o, m } = await setup();
  const before = await call('GET', `/memberships/${m.id}`, { token: o.key });
  const res = await call('POST', `/memberships/${m.id}/extend`, { token: o.key, body: { days: 7 } });
  assert.is(res.status, 200);
  assert.is(Date.parse(res.body.current_period_end) - Date.parse(before.body.current_period_end), 7 * 86_400_000);
  assert.is((await lastEvent('membership.extended', m.id)).current_period_end, res.body.current_period_end);
  for (const body of [{}, { days: 0 }, { days: 3651 }, { days: 1.5 }, { days: '3' }]) {
    const bad = await call('POST', `/memberships/${m.id}/extend`, { token: o.key, body });
    assert.is(bad.status, 400, JSON.stringify(body));
    assert.is(bad.body.error.param, 'days');
  }
});

t('extend moves the next timed step (due_at) with the period; pause clears it, resume makes it due at once; ended or endless is 400', async () => {
  const { o, m } = await setup();
  await call('POST', `/memberships/${m.id}/cancel`, { token: o.key, body: { cancel_at_period_end: true } });
  const res = await call('POST', `/memberships/${m.id}/extend`, { token: o.key, body: { days: 3 } });
  const dueAt = async () => (await app.db('memberships').where({ id: m.id }).first('due_at')).due_at;
  assert.is(Date.parse(await dueAt()), Date.parse(res.body.current_period_end));
  await call('POST', `/memberships/${m.id}/pause`, { token: o.key });
  assert.is(await dueAt(), null);
  const resumed = await call('POST', `/memberships/${m.id}/resume`, { token: o.key });
  assert.is(resumed.body.current_period_end, resumed.body.current_period_start, 'a renewal plan starts a new period at the resume');
  assert.is(Date.parse(await dueAt()), Date.parse(resumed.body.current_period_start));
  const endless = await setup({ periodEnd: null });
  const none = await call('POST', `/memberships/${endless.m.id}/extend`, { token: endless.o.key, body: { days: 3 } });
  assert.is(none.status, 400);
  assert.is(none.body.error.param, 'days');
  const ended = await setup();
  await call('POST', `/memberships/${ended.m.id}/cancel`, { token: ended.o.key }); // ended: canceled now
  const late = await call('POST', `/memberships/${ended.m.id}/extend`, { token: ended.o.key, body: { days: 3 } });
  assert.is(late.status, 400);
  assert.is(late.body.error.type, 'invalid_state');
  assert.is(late.body.error.param, 'status');
});

t('pause and resume: paused_at, events, and refusals from the wrong state', async () => {
  const { o, m } = await setup();
  const resumeActive = await call('POST', `/memberships/${m.id}/resume`, { token: o.key });
  assert.is(resumeActive.status, 400);
  assert.is(resumeActive.body.error.type, 'invalid_state');
  assert.is(resumeActive.body.error.param, 'status');
  const paused = await call('POST', `/memberships/${m.id}/pause`, { token: o.key });
  assert.is(paused.status, 200);
  assert.is(paused.body.status, 'paused');
  assert.ok(paused.body.paused_at);
  assert.is((await lastEvent('membership.paused', m.id)).status, 'paused');
  const twice = await call('POST', `/memberships/${m.id}/pause`, { token: o.key });
  assert.is(twice.status, 400);
  assert.is(twice.body.error.type, 'invalid_state');
  const resumed = await call('POST', `/memberships/${m.id}/resume`, { token: o.key });
  assert.is(resumed.status, 200);
  assert.is(resumed.body.status, 'active');
  assert.is(resumed.body.paused_at, null);
  assert.is((await lastEvent('membership.resumed', m.id)).status, 'active');
});

t('a paused membership can be canceled; a canceled one cannot be paused', async () => {
  const { o, m } = await setup();
  assert.is((await call('POST', `/memberships/${m.id}/pause`, { token: o.key })).body.status, 'paused');
  const res = await call('POST', `/memberships/${m.id}/cancel`, { token: o.key });
  assert.is(res.body.status, 'canceled');
  const pause = await call('POST', `/memberships/${m.id}/pause`, { token: o.key });
  assert.is(pause.status, 400);
  assert.is(pause.body.error.type, 'invalid_state');
});

t('writes need member:manage: read-only key 403, buyer 403, stranger 404, unknown 404', async () => {
  const { o, buyer, m } = await setup();
  const reader = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  const stranger = await makeOwner(app.db);
  for (const [method, suffix, body] of [['PATCH', '', { metadata: { a: 1 } }], ['POST', '/cancel', {}], ['POST', '/uncancel', undefined],
    ['POST', '/extend', { days: 1 }], ['POST', '/pause', undefined], ['POST', '/resume', undefined]] as const) {
    const path = `/memberships/${m.id}${suffix}`;
    const viewer = await call(method, path, { token: reader.secret, body });
    assert.is(viewer.status, 403, `${path} viewer`);
    assert.is(viewer.body.error.type, 'permission_denied');
    const own = await call(method, path, { token: buyer.token, body });
    assert.is(own.status, 403, `${path} buyer`);
    const other = await call(method, path, { token: stranger.key, body });
    assert.is(other.status, 404, `${path} stranger`);
    assert.is(other.body.error.param, 'id');
    const missing = await call(method, `/memberships/mem_missing${suffix}`, { token: o.key, body });
    assert.is(missing.status, 404, `${path} missing`);
  }
  assert.is((await app.db('memberships').where({ id: m.id }).first()).status, 'active');
});

t('the account owner\'s user token manages memberships', async () => {
  const { o, m } = await setup();
  const res = await call('POST', `/memberships/${m.id}/pause`, { token: o.token });
  assert.is(res.status, 200);
  assert.is(res.body.status, 'paused');
});

t.run();
