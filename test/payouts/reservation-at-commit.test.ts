// A payout's reservation is posted with its request's COMMIT (handlers/ledger/post.ts postEntriesAtCommit,
// runtime/request-db.ts refusableAtCommit): the balance is locked for that round trip alone, and a balance that does
// not cover the amount refuses the request there, with nothing written, the refusal kept for its Idempotency-Key.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { fundBalance } from '../helpers/ledger.js';
import { recordStatements, statementsOf, stopRecordingStatements } from '../helpers/page-plans.js';
import { available, payoutOwner, VERSION } from './payout-fixtures.js';

const t = suite('payout reservation at COMMIT');
let app: TestApp;
t.before(async () => {
  app = await startTestApp();
  recordStatements();
});
t.after(async () => {
  stopRecordingStatements();
  await app.close();
});

const run = Math.random().toString(36).slice(2, 8);
const key = (name: string) => `${name}-${run}`;

const post = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.request('POST', '/payouts', { token, version: VERSION, body, headers });

/** What a refused payout could have left: payouts, payout.created events, the rail's jobs. */
async function traces(accountId: string) {
  const payouts = await app.db('payouts').where({ account_id: accountId }).pluck('id');
  const events = await app.db('events').where({ account_id: accountId, type: 'payout.created' }).pluck('id');
  const jobs = payouts.length === 0 ? 0 : Number((await app.db.raw(
    'select count(*) from graphile_worker._private_jobs where key = any(?)', [payouts.map((id: string) => `payout_rail_step:${id}`)])).rows[0].count);
  return { payouts: payouts.length, events: events.length, jobs };
}

t('the reservation goes with the COMMIT, after the jobs, and nowhere else', async () => {
  const o = await payoutOwner(app, 10_000);
  const { res, statements } = await statementsOf(app, 'POST', '/payouts',
    { token: o.key, version: VERSION, body: { account_id: o.accountId, payout_method_id: o.methodId, amount: '25.00' } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const posting = statements.filter((s) => /insert into ledger_postings/.test(s.text));
  assert.is(posting.length, 1, posting.map((s) => s.text.slice(0, 160)).join('\n'));
  assert.match(posting[0].text, /app_add_jobs\(.*; insert into ledger_postings .*; COMMIT$/s);
  assert.ok(posting[0].text.includes(`'${res.body.id}:requested'`), 'the entry is the payout\'s');
  assert.equal([await available(app, o.ledger), await available(app, o.ledger, 'in_transit')], [7_500, 2_500]);
  assert.equal(await traces(o.accountId), { payouts: 1, events: 1, jobs: 1 });
});

t('refused at the COMMIT: 400 insufficient_funds, and neither the payout, its event nor its job is written', async () => {
  const o = await payoutOwner(app, 10_000);
  const res = await post(o.key, { account_id: o.accountId, payout_method_id: o.methodId, amount: '100.01' });
  assert.equal([res.status, res.body.error.type, res.body.error.param], [400, 'insufficient_funds', 'amount']);
  assert.equal(await traces(o.accountId), { payouts: 0, events: 0, jobs: 0 });
  assert.equal([await available(app, o.ledger), await available(app, o.ledger, 'in_transit')], [10_000, 0]);
});

t('a refusal at the COMMIT is kept for its Idempotency-Key: the retry replays it, even once the balance covers it', async () => {
  const o = await payoutOwner(app, 5_000);
  const body = { account_id: o.accountId, payout_method_id: o.methodId, amount: '60.00' };
  const first = await post(o.key, body, { 'Idempotency-Key': key('short-1') });
  assert.equal([first.status, first.body.error.type, first.headers.get('idempotent-replayed')], [400, 'insufficient_funds', null]);
  const stored = await app.db('idempotency_keys').where({ key: key('short-1') }).first('status_code', 'state');
  assert.equal(stored, { status_code: 400, state: 'done' });
  await fundBalance(app.db, o.accountId, 5_000);
  const retry = await post(o.key, body, { 'Idempotency-Key': key('short-1') });
  assert.equal([retry.status, retry.body.error.type, retry.headers.get('idempotent-replayed')], [400, 'insufficient_funds', 'true']);
  assert.equal(retry.headers.get('original-request'), first.body.error.request_id);
  assert.equal(await traces(o.accountId), { payouts: 0, events: 0, jobs: 0 });
  const fresh = await post(o.key, body, { 'Idempotency-Key': key('short-2') });
  assert.is(fresh.status, 201, JSON.stringify(fresh.body));
  assert.equal([await available(app, o.ledger), await available(app, o.ledger, 'in_transit')], [4_000, 6_000]);
  assert.equal(await traces(o.accountId), { payouts: 1, events: 1, jobs: 1 });
});

t('the same key sent with a different request after a refusal at the COMMIT is a 400 idempotency_error', async () => {
  const o = await payoutOwner(app, 1_000);
  const refused = await post(o.key, { account_id: o.accountId, payout_method_id: o.methodId, amount: '20.00' }, { 'Idempotency-Key': key('short-3') });
  assert.is(refused.status, 400);
  const other = await post(o.key, { account_id: o.accountId, payout_method_id: o.methodId, amount: '5.00' }, { 'Idempotency-Key': key('short-3') });
  assert.equal([other.status, other.body.error.type], [400, 'idempotency_error']);
  assert.is(await available(app, o.ledger), 1_000);
});

t.run();
