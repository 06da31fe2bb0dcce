// v2 membership routes over real HTTP: each runs the Current operation (the database shows its effect).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { makeMembership } from '../memberships/fixtures.js';
import { lifecycleApi } from '../memberships/lifecycle-fixtures.js';
import { makeSeller } from '../payments/payment-fixtures.js';
import { v2, expectV2Headers, expectError, expectOk } from './support.js';

let app: TestApp;
test.before(async () => { app = await startTestApp({ worker: true }); });
test.after(async () => { await app.close(); });

async function ownerWithMembership(options: Parameters<typeof makeMembership>[3] = {}) {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app, o.accountId, buyer.id, options);
  return { o, m };
}

test('GET /memberships/{id} and by license key', async () => {
  const { o, m } = await ownerWithMembership({ includesLicense: true });
  const res = await v2(app, 'GET', `/memberships/${m.id}`, { token: o.key });
  expectOk(res);
  assert.is(res.body.id, m.id);
  expectV2Headers(app, res, `/memberships/${m.id}`);
  const byKey = await v2(app, 'GET', `/memberships/${m.licenseKey}`, { token: o.key });
  expectOk(byKey);
  assert.is(byKey.body.id, m.id);
  const missing = await v2(app, 'GET', '/memberships/mem_nope', { token: o.key });
  expectError(missing, 404, 'not_found');
  expectV2Headers(app, missing, '/memberships/mem_nope');
});

test('POST /memberships/{id} is a PATCH of the sent fields only', async () => {
  const { o, m } = await ownerWithMembership();
  const kept = await app.request('PATCH', `/memberships/${m.id}`, { token: o.key, version: headVersion(), body: { metadata: { keep: 'me' } } });
  assert.is(kept.status, 200, JSON.stringify(kept.body));
  const before = await app.db('memberships').where({ id: m.id }).first();
  const res = await v2(app, 'POST', `/memberships/${m.id}`, { token: o.key, body: { metadata: { seat: '4' } } });
  expectOk(res);
  expectV2Headers(app, res, `/memberships/${m.id}`);
  const after = await app.db('memberships').where({ id: m.id }).first();
  assert.equal(after.metadata, { keep: 'me', seat: '4' });
  assert.is(after.status, before.status);
  assert.equal(after.current_period_end, before.current_period_end);
  const refused = await v2(app, 'POST', `/memberships/${m.id}`, { token: o.key, body: { status: 'canceled' } });
  expectError(refused, 400, 'invalid_request', 'status');
});

test('POST /memberships/{id}/terminate ends access now', async () => {
  const { o, m } = await ownerWithMembership();
  const res = await v2(app, 'POST', `/memberships/${m.id}/terminate`, { token: o.key });
  expectOk(res);
  expectV2Headers(app, res, `/memberships/${m.id}/cancel`);
  const row = await app.db('memberships').where({ id: m.id }).first();
  assert.is(row.status, 'canceled');
  assert.is(row.cancel_at_period_end, false);
  assert.is(res.body.status, 'canceled');
  const again = await v2(app, 'POST', `/memberships/${m.id}/terminate`, { token: o.key });
  expectError(again, 400, 'invalid_state');
  expectV2Headers(app, again, `/memberships/${m.id}/cancel`);
});

test('POST /memberships/{id}/add_free_days moves the period end', async () => {
  const { o, m } = await ownerWithMembership();
  const before = await app.db('memberships').where({ id: m.id }).first();
  const res = await v2(app, 'POST', `/memberships/${m.id}/add_free_days`, { token: o.key, body: { days: 7 } });
  expectOk(res);
  expectV2Headers(app, res, `/memberships/${m.id}/extend`);
  const after = await app.db('memberships').where({ id: m.id }).first();
  assert.is(new Date(after.current_period_end).getTime() - new Date(before.current_period_end).getTime(), 7 * 86_400_000);
  const bad = await v2(app, 'POST', `/memberships/${m.id}/add_free_days`, { token: o.key, body: { days: 'seven' } });
  expectError(bad, 400, 'invalid_request', 'days');
});

test('POST /memberships/{id}/validate_license binds a hardware id on first use and refuses another', async () => {
  const { o, m } = await ownerWithMembership({ includesLicense: true });
  const key = m.licenseKey!;
  const check = await v2(app, 'POST', `/memberships/${key}/validate_license`, { token: o.key });
  expectOk(check);
  assert.is(check.body.id, m.id);
  expectV2Headers(app, check, `/memberships/${key}`);
  assert.is((await app.db('memberships').where({ id: m.id }).first()).metadata.hardware_id, undefined);

  const first = await v2(app, 'POST', `/memberships/${key}/validate_license`, { token: o.key, body: { metadata: { hardware_id: 'HW-1' } } });
  expectOk(first);
  assert.is(first.body.id, m.id);
  assert.is((await app.db('memberships').where({ id: m.id }).first()).metadata.hardware_id, 'HW-1');

  const same = await v2(app, 'POST', `/memberships/${key}/validate_license`, { token: o.key, body: { metadata: { hardware_id: 'HW-1' } } });
  expectOk(same);
  const other = await v2(app, 'POST', `/memberships/${key}/validate_license`, { token: o.key, body: { metadata: { hardware_id: 'HW-2' } } });
  expectError(other, 409, 'conflict', 'metadata.hardware_id');
  expectV2Headers(app, other, `/memberships/${key}`);
  assert.is((await app.db('memberships').where({ id: m.id }).first()).metadata.hardware_id, 'HW-1');

  const badBody = await v2(app, 'POST', `/memberships/${key}/validate_license`, { token: o.key, body: { metadata: { hardware_id: 5 } } });
  expectError(badBody, 400, 'invalid_request', 'metadata.hardware_id');
});

test('validate_license refuses a membership that grants no access', async () => {
  // Its renewals failed on a card that needs the buyer until its retries ran out: expired, on a sandbox clock.
  const lifecycle = lifecycleApi(app);
  const o = await lifecycle.shop(await makeSeller(app.db));
  const m = await lifecycle.membershipIn(o, 'expired', { includesLicense: true });
  const res = await v2(app, 'POST', `/memberships/${m.licenseKey}/validate_license`, { token: o.key, body: { metadata: { hardware_id: 'HW-1' } } });
  expectError(res, 400, 'invalid_state', 'status');
  assert.match(res.body.error.message, 'expired');
  assert.is((await app.db('memberships').where({ id: m.id }).first()).metadata.hardware_id, undefined);
});

test('GET /licenses and GET /memberships page with page and per over several pages', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) ids.push((await makeMembership(app, o.accountId, buyer.id, { includesLicense: true })).id);
  const seen: string[] = [];
  for (let page = 1; page <= 3; page++) {
    const res = await v2(app, 'GET', '/licenses', { token: o.key, query: { company_id: o.accountId, page, per: 3 } });
    expectOk(res);
    assert.equal(res.body.pagination, { current_page: page, total_page: 3 });
    assert.is(res.body.data.length, page < 3 ? 3 : 1);
    for (const item of res.body.data) assert.type(item.license_key, 'string');
    seen.push(...res.body.data.map((d: { id: string }) => d.id));
    expectV2Headers(app, res, `/memberships?account_id=${o.accountId}`);
    assert.is(res.body.page_info, undefined);
  }
  assert.equal([...seen].sort(), [...ids].sort());
  // The same order as the Current list.
  const current = await app.request('GET', '/memberships', { token: o.key, query: { account_id: o.accountId, first: 7 } });
  assert.equal(seen, current.body.data.map((d: { id: string }) => d.id));
  const beyond = await v2(app, 'GET', '/memberships', { token: o.key, query: { company_id: o.accountId, page: 4, per: 3 } });
  expectOk(beyond);
  assert.equal(beyond.body, { data: [], pagination: { current_page: 4, total_page: 3 } });
  const tooBig = await v2(app, 'GET', '/memberships', { token: o.key, query: { company_id: o.accountId, per: 101 } });
  expectError(tooBig, 400, 'invalid_request', 'per');
});

test.run();
