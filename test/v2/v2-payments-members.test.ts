// v2 checkout requests (payments), payment fees and customers (members) over real HTTP.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeMembership } from '../memberships/fixtures.js';
import { collect, makeSavedMethod, makeSeller, makeVariant, pay } from '../payments/payment-fixtures.js';
import { v2, expectV2Headers, expectError, expectOk } from './support.js';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after(async () => { await app.close(); });

test('POST /checkout_requests charges a saved method through POST /payments; GET /checkout_requests/{id} reads it', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 1000 });
  const { memberId, methodId } = await makeSavedMethod(app, s.accountId);
  const res = await v2(app, 'POST', '/checkout_requests', {
    token: s.key, idempotencyKey: 'v2-checkout-1',
    body: { company_id: s.accountId, member_id: memberId, payment_method_id: methodId, plan_id: v.id },
  });
  expectOk(res, 201);
  expectV2Headers(app, res, '/payments');
  const id = res.body.id as string;
  const row = await app.db('payments').where({ id }).first();
  assert.is(row.account_id, s.accountId);
  assert.is(row.payment_method_id, methodId);
  // The Current operation's idempotency holds: the same key replays the same payment.
  const replay = await v2(app, 'POST', '/checkout_requests', {
    token: s.key, idempotencyKey: 'v2-checkout-1',
    body: { company_id: s.accountId, member_id: memberId, payment_method_id: methodId, plan_id: v.id },
  });
  expectOk(replay, 201);
  assert.is(replay.body.id, id);
  assert.is(replay.headers.get('idempotent-replayed'), 'true');
  assert.is((await app.db('payments').where({ account_id: s.accountId })).length, 1);

  const got = await v2(app, 'GET', `/checkout_requests/${id}`, { token: s.key });
  expectOk(got);
  assert.is(got.body.id, id);
  expectV2Headers(app, got, `/payments/${id}`);
  const missing = await v2(app, 'POST', '/checkout_requests', { token: s.key, body: { member_id: memberId } });
  expectError(missing, 400, 'invalid_request', 'company_id');
});

test('GET /payment_fees?payment_id= lists the payment\'s fees', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 1000 });
  const { id } = await pay(app, s, { plan_id: v.id });
  await collect(app, id);
  const fees = await app.db('payment_fees').where({ payment_id: id });
  assert.ok(fees.length > 0);
  const res = await v2(app, 'GET', '/payment_fees', { token: s.key, query: { payment_id: id } });
  expectOk(res);
  expectV2Headers(app, res, `/payments/${id}/fees`);
  assert.is(res.body.data.length, fees.length);
  assert.equal(res.body.pagination, { current_page: 1, total_page: 1 });
  const current = await app.request('GET', `/payments/${id}/fees`, { token: s.key });
  assert.equal(res.body.data.map((f: { type: string }) => f.type), current.body.data.map((f: { type: string }) => f.type));
  const without = await v2(app, 'GET', '/payment_fees', { token: s.key });
  expectError(without, 400, 'invalid_request', 'payment_id');
  expectV2Headers(app, without, '/payments/{id}/fees');
  const unknown = await v2(app, 'GET', '/payment_fees', { token: s.key, query: { payment_id: 'pay_nope' } });
  expectError(unknown, 404, 'not_found');
});

test('GET /customers lists members by page; /customers/{search} and /members/{search} search them', async () => {
  const o = await makeOwner(app.db);
  const names = ['alpha', 'bravo', 'charlie'];
  for (const name of names) {
    const buyer = await makeUser(app.db, `${name}${Date.now() % 100000}`);
    await makeMembership(app, o.accountId, buyer.id);
  }
  const all = await v2(app, 'GET', '/customers', { token: o.key, query: { company_id: o.accountId, per: 2 } });
  expectOk(all);
  assert.is(all.body.data.length, 2);
  assert.equal(all.body.pagination, { current_page: 1, total_page: 2 });
  expectV2Headers(app, all, `/members?account_id=${o.accountId}`);
  const second = await v2(app, 'GET', '/customers', { token: o.key, query: { company_id: o.accountId, per: 2, page: 2 } });
  assert.is(second.body.data.length, 1);

  for (const prefix of ['/customers', '/members']) {
    const found = await v2(app, 'GET', `${prefix}/bravo`, { token: o.key, query: { company_id: o.accountId } });
    expectOk(found);
    assert.is(found.body.data.length, 1, prefix);
    expectV2Headers(app, found, `/members?account_id=${o.accountId}&query=bravo`);
    const none = await v2(app, 'GET', `${prefix}/zulu`, { token: o.key, query: { company_id: o.accountId } });
    assert.equal(none.body, { data: [], pagination: { current_page: 1, total_page: 1 } });
  }
});

test.run();
