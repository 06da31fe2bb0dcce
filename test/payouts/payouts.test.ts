// POST/GET /payouts over the sandbox rail: reservation, the rail's steps and their money, cancel, rules and errors.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { TEST_DESTINATIONS } from '../../sandbox/payout_rail/index.js';
import { available, complianceReview, payoutOwner, saveMethod, settle, VERSION } from './payout-fixtures.js';

const t = suite('payouts');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const post = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.request('POST', '/payouts', { token, version: VERSION, body, headers });

t('a payout reserves its amount, the rail completes it, and the fee goes to the platform', async () => {
  const o = await payoutOwner(app, 100_000);
  const res = await post(o.key, { account_id: o.accountId, payout_method_id: o.methodId, amount: '250.00', speed: 'instant' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const p = res.body;
  assert.match(p.id, /^wdrl_/);
  assert.equal([p.object, p.status, p.amount, p.fee_amount, p.net_amount, p.markup_fee, p.destination_amount, p.exchange_rate, p.currency],
    ['payout', 'requested', '250.00', '2.75', '247.25', '0.00', '247.25', 1, 'usd']); // 1% + 0.25
  assert.equal([p.payout_method.id, p.payout_method.supported_payout_method.id, p.payout_method.account_reference], [o.methodId, 'podst_us_ach', '••6789']);
  assert.ok(Date.parse(p.estimated_arrival) > Date.now());
  assert.equal([await available(app, o.ledger), await available(app, o.ledger, 'in_transit')], [75_000, 25_000]);
  assert.is(await settle(app, p.id), 'completed');
  assert.equal([await available(app, o.ledger), await available(app, o.ledger, 'in_transit')], [75_000, 0]);
  const done = await app.request('GET', `/payouts/${p.id}`, { token: o.key, version: VERSION });
  assert.equal([done.body.status, done.body.status_detail, done.body.failure], ['completed', 'Delivered.', null]);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [p.id]).orderBy('created_at').select('type');
  assert.equal(events.map((e) => e.type), ['payout.created', 'payout.processing', 'payout.completed']);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('more than the balance is 400 insufficient_funds and nothing is written', async () => {
  const o = await payoutOwner(app, 10_000);
  const res = await post(o.key, { account_id: o.accountId, payout_method_id: o.methodId, amount: '100.01' });
  assert.equal([res.status, res.body.error.type, res.body.error.param], [400, 'insufficient_funds', 'amount']);
  assert.is((await app.db('payouts').where({ account_id: o.accountId })).length, 0);
  assert.is(await available(app, o.ledger), 10_000);
});

t('20 concurrent payouts against a balance that covers 5: exactly 5 succeed', async () => {
  const o = await payoutOwner(app, 50_000);
  const results = await Promise.all(Array.from({ length: 20 }, () =>
    post(o.key, { account_id: o.accountId, payout_method_id: o.methodId, amount: '100.00' })));
  const statuses = results.map((r) => r.status).sort();
  assert.equal(statuses, [...Array(5).fill(201), ...Array(15).fill(400)]);
  for (const r of results.filter((x) => x.status === 400)) assert.is(r.body.error.type, 'insufficient_funds');
  assert.is((await app.db('payouts').where({ account_id: o.accountId })).length, 5);
  assert.equal([await available(app, o.ledger), await available(app, o.ledger, 'in_transit')], [0, 50_000]);
});

t('a failing destination: failed with R03 and the amount back; a returned one: completed, then reversed with R02', async () => {
  const o = await payoutOwner(app, 100_000);
  const failing = await saveMethod(app, o.key, { account_id: o.accountId }, TEST_DESTINATIONS.fails);
  const returning = await saveMethod(app, o.key, { account_id: o.accountId }, TEST_DESTINATIONS.reversed);
  const a = (await post(o.key, { account_id: o.accountId, payout_method_id: failing.id, amount: '100.00' })).body;
  assert.is(await settle(app, a.id), 'failed');
  const failed = (await app.request('GET', `/payouts/${a.id}`, { token: o.key, version: VERSION })).body;
  assert.equal([failed.failure.return_code, failed.failure.message], ['R03', 'No account / unable to locate account']);
  assert.ok(failed.failure.funds_returned_at);
  assert.is(await available(app, o.ledger), 100_000);
  const b = (await post(o.key, { account_id: o.accountId, payout_method_id: returning.id, amount: '100.00' })).body;
  assert.is(await settle(app, b.id), 'reversed');
  const reversed = (await app.request('GET', `/payouts/${b.id}`, { token: o.key, version: VERSION })).body;
  assert.equal([reversed.status, reversed.failure.return_code], ['reversed', 'R02']);
  assert.is(await available(app, o.ledger), 100_000); // the standard ACH payout had no fee
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('large payouts and new accounts go to review; review denies the test destination and returns the amount', async () => {
  const o = await payoutOwner(app, 2_000_000);
  // The denied one first: a denied payout does not count toward the unverified limit (10,000.00 USD), which the big one reaches.
  const denying = await saveMethod(app, o.key, { account_id: o.accountId }, TEST_DESTINATIONS.denied);
  const d = (await post(o.key, { account_id: o.accountId, payout_method_id: denying.id, amount: '5.00' })).body;
  assert.is(await settle(app, d.id), 'denied');
  const big = (await post(o.key, { account_id: o.accountId, payout_method_id: o.methodId, amount: '10000.00' })).body;
  assert.is(await settle(app, big.id), 'completed');
  const events = await app.db('events').whereRaw("data->>'id' = ?", [big.id]).orderBy('created_at').select('type');
  assert.equal(events.map((e) => e.type), ['payout.created', 'payout.in_review', 'payout.processing', 'payout.completed']);
  assert.is(await available(app, o.ledger), 1_000_000);
  const fresh = await makeOwner(app.db);
  const ledger = await fundBalance(app.db, fresh.accountId, 200_000);
  const m = await saveMethod(app, fresh.key, { account_id: fresh.accountId }, '99887766');
  const p = (await post(fresh.key, { account_id: fresh.accountId, payout_method_id: m.id, amount: '1000.00' })).body;
  assert.is((await settle(app, p.id)), 'completed');
  assert.ok(await app.db('events').where({ type: 'payout.in_review' }).whereRaw("data->>'id' = ?", [p.id]).first());
  assert.is(await available(app, ledger), 100_000);
});

t('cancel before processing returns the amount; after, it is 400 invalid_state', async () => {
  const o = await payoutOwner(app, 50_000);
  const p = (await post(o.key, { account_id: o.accountId, payout_method_id: o.methodId, amount: '200.00' })).body;
  const canceled = await app.request('POST', `/payouts/${p.id}/cancel`, { token: o.key, version: VERSION });
  assert.equal([canceled.status, canceled.body.status], [200, 'canceled']);
  assert.is(await available(app, o.ledger), 50_000);
  assert.is(await settle(app, p.id), 'canceled', 'the rail leaves a canceled payout alone');
  const again = await app.request('POST', `/payouts/${p.id}/cancel`, { token: o.key, version: VERSION });
  assert.equal([again.status, again.body.error.type], [400, 'invalid_state']);
});

t('rules: a blocked account, another owner\'s method, a speed or currency the rail lacks, limits, malformed amounts', async () => {
  const o = await payoutOwner(app, 50_000);
  const base = { account_id: o.accountId, payout_method_id: o.methodId, amount: '10.00' };
  const other = await payoutOwner(app, 1_000);
  const cases: [Record<string, unknown>, number, string, string][] = [
    [{ ...base, payout_method_id: other.methodId }, 404, 'not_found', 'payout_method_id'],
    [{ ...base, currency: 'eur' }, 400, 'invalid_request', 'currency'],
    [{ ...base, amount: '0.50' }, 400, 'invalid_request', 'amount'],
    [{ ...base, amount: '10.001' }, 400, 'invalid_request', 'amount'],
    [{ ...base, amount: 10 }, 400, 'invalid_request', 'amount'],
    [{ ...base, user_id: o.owner.id }, 400, 'invalid_request', 'user_id'],
    [{ ...base, idempotency_key: 'k1' }, 400, 'invalid_request', 'idempotency_key'],
  ];
  for (const [body, status, type, param] of cases) {
    const res = await post(o.key, body);
    assert.equal([res.status, res.body.error?.type, res.body.error?.param], [status, type, param], JSON.stringify(body));
  }
  const implicit = await post(o.key, { payout_method_id: o.methodId, amount: '10.00' });
  assert.equal([implicit.status, implicit.body.account_id], [201, o.accountId], 'an API key without account_id pays out from its own account');
  const card = await saveMethod(app, o.key, { account_id: o.accountId }, '4000056655665556', 'podst_debit_card');
  const standard = await post(o.key, { ...base, payout_method_id: card.id, speed: 'standard' });
  assert.equal([standard.status, standard.body.error.param], [400, 'speed']);
  await complianceReview(app, o);
  const blocked = await post(o.key, base);
  assert.equal([blocked.status, blocked.body.error.type, blocked.body.error.param], [400, 'invalid_state', 'payment_controls.undated_pending_reason']);
  assert.match(blocked.body.error.message, 'compliance review');
  const stranger = await makeOwner(app.db);
  assert.is((await post(stranger.key, base)).status, 404);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  assert.is((await post(viewer.secret, base)).status, 403);
});

t('a user pays out from their own wallet with their token; nobody else reaches it', async () => {
  const alice = await makeUser(app.db);
  const ledger = await fundBalance(app.db, alice.id, 30_000);
  const method = await saveMethod(app, alice.token, { user_id: alice.id }, 'wallet-alice-01', 'podst_wallet');
  const res = await post(alice.token, { user_id: alice.id, payout_method_id: method.id, amount: '100.00' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal([res.body.user_id, res.body.account_id, res.body.fee_amount], [alice.id, null, '1.00']);
  assert.is(await available(app, ledger), 20_000);
  const bob = await makeUser(app.db);
  assert.is((await app.request('GET', `/payouts/${res.body.id}`, { token: bob.token, version: VERSION })).status, 404);
  assert.is((await post(bob.token, { user_id: alice.id, payout_method_id: method.id, amount: '1.00' })).status, 403);
  const o = await makeOwner(app.db);
  assert.is((await app.request('GET', `/payouts/${res.body.id}`, { token: o.key, version: VERSION })).status, 404);
  const mine = await app.request('GET', '/payouts', { token: alice.token, version: VERSION });
  assert.equal(mine.body.data.map((p: any) => p.id), [res.body.id]);
});

t('lists: newest first, by account, status and currency; without an owner, every permitted account', async () => {
  const o = await payoutOwner(app, 100_000);
  const ids: string[] = [];
  for (const amount of ['10.00', '20.00', '30.00']) {
    ids.push((await post(o.key, { account_id: o.accountId, payout_method_id: o.methodId, amount })).body.id);
  }
  await settle(app, ids[0]);
  const all = await app.request('GET', '/payouts', { token: o.key, version: VERSION, query: { account_id: o.accountId } });
  assert.equal(all.body.data.map((p: any) => p.id), [...ids].reverse());
  const page = await app.request('GET', '/payouts', { token: o.key, version: VERSION, query: { account_id: o.accountId, first: 2 } });
  assert.equal([page.body.data.length, page.body.page_info.has_next_page], [2, true]);
  const next = await app.request('GET', '/payouts', { token: o.key, version: VERSION, query: { account_id: o.accountId, first: 2, after: page.body.page_info.end_cursor } });
  assert.equal(next.body.data.map((p: any) => p.id), [ids[0]]);
  const completed = await app.request('GET', '/payouts', { token: o.key, version: VERSION, query: { account_id: o.accountId, status: 'completed' } });
  assert.equal(completed.body.data.map((p: any) => p.id), [ids[0]]);
  const eur = await app.request('GET', '/payouts', { token: o.key, version: VERSION, query: { account_id: o.accountId, currency: 'eur' } });
  assert.equal(eur.body.data, []);
  const unnamed = await app.request('GET', '/payouts', { token: o.key, version: VERSION });
  assert.equal(unnamed.body.data.map((p: any) => p.id).sort(), [...ids].sort());
  const stranger = await makeOwner(app.db);
  assert.is((await app.request('GET', '/payouts', { token: stranger.key, version: VERSION, query: { account_id: o.accountId } })).status, 404);
});

t('Idempotency-Key: a retry replays the payout and reserves once', async () => {
  const o = await payoutOwner(app, 50_000);
  const body = { account_id: o.accountId, payout_method_id: o.methodId, amount: '100.00' };
  const [a, b] = await Promise.all([post(o.key, body, { 'Idempotency-Key': 'payout-1' }), post(o.key, body, { 'Idempotency-Key': 'payout-1' })]);
  const created = [a, b].filter((r) => r.status === 201);
  assert.ok(created.length >= 1);
  const retry = await post(o.key, body, { 'Idempotency-Key': 'payout-1' });
  assert.equal([retry.status, retry.headers.get('idempotent-replayed')], [201, 'true']);
  assert.is((await app.db('payouts').where({ account_id: o.accountId })).length, 1);
  assert.is(await available(app, o.ledger), 40_000);
});

t.run();
