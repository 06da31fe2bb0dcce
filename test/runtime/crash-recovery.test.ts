// Crash tests: a real process is SIGKILLed at a known point of its work, held there by a row lock this test takes
// (begin; select ... for update, then wait until the process's backend waits on it in pg_stat_activity). After a
// restart the work finishes exactly once. Each test prints its recovery time: from the restarted process being
// ready to the final state (and from the kill). Liveness settings are short (test/helpers/processes.ts).
import { suite } from 'uvu';
import { until as poll } from '../helpers/poll.js';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeUser } from '../helpers/fixtures.js';
import { holdRowLock, killPid, startApiCluster, workerProcesses, type WorkerProcess } from '../helpers/processes.js';
import { CARDS, makePromo, makeSeller, makeToken, makeVariant, pay, VERSION } from '../payments/payment-fixtures.js';
import { randomToken } from '../../runtime/ids.js';
import { postingsOf } from '../helpers/ledger.js';

const t = suite('runtime: crash recovery');
let app: TestApp;
let workers: ReturnType<typeof workerProcesses>;
t.before(async () => { app = await startTestApp(); workers = workerProcesses(app.databaseUrl); });
t.after(async () => {
  await workers.killAll();
  await app.close();
});

const worker = () => workers.start();
const stop = (w: WorkerProcess, signal: NodeJS.Signals) => workers.stop(w, signal);

const until = <T>(probe: () => Promise<T>, what: string, timeoutMs = 30_000) => poll(probe, what, { timeoutMs });

const FINAL = ['succeeded', 'failed', 'canceled', 'refunded', 'partially_refunded'];
const statusOf = async (id: string) => (await app.db('payments').where({ id }).first('status')).status as string;
const jobsFor = async (key: string) => Number((await app.db('graphile_worker.jobs').where({ key }).count({ n: '*' }))[0].n);
const ledgerSum = async (accountId: string) =>
  Number((await postingsOf(app.db, accountId).sum({ n: 'amount' }))[0].n ?? 0);

/** Kills `w` while its `n` jobs wait on the locks, releases the locks, starts another worker and times recovery. */
async function crashAndRecover(w: WorkerProcess, locks: Awaited<ReturnType<typeof holdRowLock>>[], done: () => Promise<boolean>, what: string) {
  for (const lock of locks) await lock.waitForWaiters(1);
  const held = Number((await app.db('graphile_worker.jobs').where({ locked_by: w.workerId }).count({ n: '*' }))[0].n);
  assert.ok(held >= locks.length, 'the killed worker holds the jobs');
  await stop(w, 'SIGKILL');
  const killedAt = Date.now();
  for (const lock of locks) await lock.release();
  const restarted = await worker();
  const readyAt = Date.now();
  await until(done, `${what} to finish after the restart`);
  const now = Date.now();
  console.log(`\n  recovery (${what}): ${now - readyAt} ms from the restarted worker ready to the final state `
    + `(${now - killedAt} ms from the kill; the restart took ${readyAt - killedAt} ms)`);
  return restarted;
}

t('(a) collect_payment killed mid-task: after a restart each payment ends once; stock and promo redemption are kept or given back', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { stock: 5, planType: 'one_time' });
  const promo = await makePromo(app, s.accountId, { maxRedemptions: 10 });
  // Created with no worker running: their collect_payment jobs wait.
  const ok = await pay(app, s, { plan_id: v.id, promo_code_id: promo.id }, { collect: false });
  const bad = await pay(app, s, { plan_id: v.id, promo_code_id: promo.id }, { card: CARDS.declined, collect: false });
  const stockAndRedemptions = async () => [
    (await app.db('plans').where({ id: v.id }).first('stock')).stock, (await app.db('promo_codes').where({ id: promo.id }).first('redemptions')).redemptions];
  assert.equal(await stockAndRedemptions(), [3, 2], 'both payments hold a unit and a redemption');

  const locks = [await holdRowLock(app.db, 'payments', ok.id), await holdRowLock(app.db, 'payments', bad.id)];
  const first = await worker();
  const restarted = await crashAndRecover(first, locks,
    async () => FINAL.includes(await statusOf(ok.id)) && FINAL.includes(await statusOf(bad.id)), 'collect_payment');
  await stop(restarted, 'SIGTERM');

  assert.is(await statusOf(ok.id), 'succeeded');
  assert.is(await statusOf(bad.id), 'failed');
  assert.equal(await stockAndRedemptions(), [4, 1], 'the success keeps its unit and redemption; the failure gives them back once');
  // Charged once: one settlement entry, one pair of fees, one event per outcome.
  const postings = await postingsOf(app.db, s.accountId);
  assert.equal(postings.map((p) => p.entry_id), [`${ok.id}:settled`, `${ok.id}:settled`, `${ok.id}:settled`]);
  assert.is(await ledgerSum(s.accountId), 0);
  assert.is((await app.db('payment_fees').where({ payment_id: ok.id })).length, 2);
  assert.is((await app.db('payment_fees').where({ payment_id: bad.id })).length, 0);
  const events = await app.db('events').where({ account_id: s.accountId }).whereIn('type', ['payment.succeeded', 'payment.failed']).pluck('type');
  assert.equal(events.sort(), ['payment.failed', 'payment.succeeded']);
  assert.is(await jobsFor(`collect_payment:${ok.id}`) + await jobsFor(`collect_payment:${bad.id}`), 0, 'the jobs are done');
});

t('(b) refund settlement killed mid-task: after a restart the refund settles once and the ledger takes it back once', async () => {
  const s = await makeSeller(app.db);
  const p = await pay(app, s, { amount: 2000, currency: 'usd' }); // collected in this process
  const res = await app.request('POST', `/payments/${p.id}/refund`, { token: s.key, version: VERSION, body: { partial_amount: 700 } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const refund = await app.db('refunds').where({ payment_id: p.id }).first();
  assert.is(refund.status, 'pending');

  const lock = await holdRowLock(app.db, 'refunds', refund.id);
  const first = await worker();
  const restarted = await crashAndRecover(first, [lock],
    async () => (await app.db('refunds').where({ id: refund.id }).first('status')).status === 'succeeded', 'refund settlement');
  await stop(restarted, 'SIGTERM');

  const payment = await app.db('payments').where({ id: p.id }).first();
  assert.is(payment.status, 'partially_refunded');
  assert.is(Number(payment.refunded_amount), 700, 'refunded once');
  const postings = await app.db('ledger_postings').where({ entry_id: refund.id });
  assert.equal(postings.map((r) => [r.bucket, Number(r.amount)]).sort(), [['pending', -700], ['processor_clearing', 700]]);
  assert.is(await ledgerSum(s.accountId), 0);
  assert.is((await app.db('events').where({ type: 'refund.succeeded' }).whereRaw("data->>'id' = ?", [refund.id])).length, 1);
});

t('(c) an idempotent request killed inside its transaction: after the restart an immediate retry with its key runs, once', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { stock: 3, planType: 'one_time' });
  const buyer = await makeUser(app.db);
  const ctok = await makeToken(app, s.clientId);
  const api = await startApiCluster(app.databaseUrl, { processes: 1, runWorker: false });
  try {
    const key = `crash-${randomToken(8)}`;
    const send = () => fetch(`${api.url}/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json', 'api-version-date': VERSION, 'idempotency-key': key },
      body: JSON.stringify({ account_id: s.accountId, confirmation_token: ctok, user_id: buyer.id, plan_id: v.id }),
    });
    // The request takes its key, then waits to take a unit of the variant's stock: the plan row is locked here.
    const lock = await holdRowLock(app.db, 'plans', v.id);
    const first = send().then((r) => r.status, (e: Error) => e);
    await lock.waitForWaiters(1);
    const [pid] = api.pids();
    const replaced = api.nextListening();
    await killPid(pid);
    const killedAt = Date.now();
    await lock.release();
    assert.instance(await first, Error, 'the killed request got no answer');
    await replaced; // the primary starts another API process
    const readyAt = Date.now();

    const retry = await send();
    const body = await retry.json();
    const answeredAt = Date.now();
    console.log(`\n  recovery (idempotent request): ${answeredAt - readyAt} ms from the restarted API process ready to the `
      + `retry's answer (${answeredAt - killedAt} ms from the kill; the restart took ${readyAt - killedAt} ms)`);
    assert.is(retry.status, 201, JSON.stringify(body));
    assert.is(retry.headers.get('idempotent-replayed'), null, 'the retry ran: the killed attempt left nothing');
    const replay = await send();
    assert.is(replay.status, 201);
    assert.is(replay.headers.get('idempotent-replayed'), 'true');
    assert.is((await replay.json()).id, body.id);
    // Once: one payment, one unit of stock, one stored key.
    assert.equal(await app.db('payments').where({ user_id: buyer.id }).pluck('id'), [body.id]);
    assert.is((await app.db('plans').where({ id: v.id }).first('stock')).stock, 2);
    assert.equal(await app.db('idempotency_keys').where({ key }).pluck('state'), ['done']);
  } finally {
    await api.stop();
  }
});

t.run();
