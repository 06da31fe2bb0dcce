// Several processes on one database, as production runs them: `npm start` with two API processes (WEB_CONCURRENCY=2,
// RUN_WORKER=false) and two `npm run worker` processes, all real children on the test's database. A burst of mixed
// creates goes through the API processes while one API process and one worker are SIGKILLed and replaced; nothing
// is lost and nothing happens twice.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeUser } from '../helpers/fixtures.js';
import { killPid, startApiCluster, startWorkerProcess, type ApiCluster, type WorkerProcess } from '../helpers/processes.js';
import { startReceiver, until, type Receiver } from '../webhooks/receiver.js';
import { CARDS, makeSeller, makeToken, pay, VERSION } from '../payments/payment-fixtures.js';
import { randomToken } from '../../runtime/ids.js';
import { postingsOf } from '../helpers/ledger.js';

const t = suite('runtime: several API and worker processes on one database');
let app: TestApp;
const receivers: Receiver[] = [];
let api: ApiCluster | null = null;
const workers: WorkerProcess[] = [];
t.before(async () => { app = await startTestApp(); });
t.after(async () => {
  await api?.stop();
  for (const w of workers) await w.kill();
  for (const r of receivers) await r.close();
  await app.close();
});

type Seller = Awaited<ReturnType<typeof makeSeller>>;
interface Op {
  seller: Seller;
  method: 'POST' | 'PATCH';
  path: string;
  body: Record<string, unknown>;
  /** POSTs carry an Idempotency-Key, kept across retries */
  key?: string;
  /** for payments: the buyer (one payment each) and the outcome its card leads to */
  buyerId?: string;
  outcome?: 'succeeded' | 'failed';
  status?: number;
  response?: any;
  attempts: number;
  /** attempts that got no answer within ATTEMPT_TIMEOUT_MS */
  timeouts: number;
}

const ATTEMPT_TIMEOUT_MS = 20_000;

/** Sends until the API answers for good: a lost connection (a killed process), a 5xx, a 409 (the key still held
 * by a request whose process just died) or no answer in time is retried with the same key, as a client would. */
async function send(base: string, op: Op): Promise<void> {
  for (;;) {
    op.attempts++;
    try {
      const res = await fetch(`${base}${op.path}`, {
        method: op.method,
        headers: {
          authorization: `Bearer ${op.seller.key}`, 'content-type': 'application/json', 'api-version-date': VERSION,
          ...(op.key ? { 'idempotency-key': op.key } : {}),
        },
        body: JSON.stringify(op.body),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const body = await res.json();
      if (res.status < 500 && res.status !== 409) {
        op.status = res.status;
        op.response = body;
        return;
      }
    } catch (e) {
      // the connection died with its process, or (counted) nothing answered
      if ((e as Error).name === 'TimeoutError') op.timeouts++;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const FINAL = ['succeeded', 'failed', 'canceled', 'refunded', 'partially_refunded'];

t('a burst across 2 API processes and 2 workers, one of each SIGKILLed mid-burst: every request once, every payment final, every event delivered signed, every ledger balanced', async () => {
  // Two sellers, each with a subscription to every event on its own receiver (which checks the signature).
  const sellers = [await makeSeller(app.db), await makeSeller(app.db)];
  for (const s of sellers) {
    const receiver = await startReceiver();
    receiver.respond = { status: 200, delayMs: 30 }; // deliveries take a moment, so a killed worker is likely sending
    const hook = await app.request('POST', '/webhooks', { token: s.key, version: VERSION, body: { account_id: s.accountId, url: receiver.url } });
    assert.is(hook.status, 201, JSON.stringify(hook.body));
    receiver.secret = hook.body.secret;
    receivers.push(receiver);
  }
  // Payments to refund in the burst, collected here; cards and buyers for the burst's payments.
  const ops: Op[] = [];
  for (const s of sellers) {
    for (let i = 0; i < 3; i++) {
      const p = await pay(app, s, { amount: 3000, currency: 'usd' });
      for (const amount of [500, 700]) {
        ops.push({ seller: s, method: 'POST', path: `/payments/${p.id}/refund`, body: { partial_amount: amount }, key: `rf-${randomToken(10)}`, attempts: 0, timeouts: 0 });
      }
    }
    for (let i = 0; i < 12; i++) {
      const card = [CARDS.succeeds, CARDS.declined, CARDS.insufficientFunds][i % 3];
      const buyerId = (await makeUser(app.db)).id;
      ops.push({
        seller: s, method: 'POST', path: '/payments', key: `pay-${randomToken(10)}`, buyerId, attempts: 0, timeouts: 0,
        outcome: card === CARDS.succeeds ? 'succeeded' : 'failed',
        body: { account_id: s.accountId, confirmation_token: await makeToken(app, s.clientId, card), user_id: buyerId, amount: 1000 + i, currency: 'usd' },
      });
    }
    for (let i = 0; i < 3; i++) ops.push({ seller: s, method: 'PATCH', path: `/accounts/${s.accountId}`, body: { title: `Burst ${i}` }, attempts: 0, timeouts: 0 });
  }
  ops.sort(() => Math.random() - 0.5);

  const [cluster, w1, w2] = await Promise.all([
    startApiCluster(app.databaseUrl, { processes: 2, runWorker: false }), startWorkerProcess(app.databaseUrl), startWorkerProcess(app.databaseUrl),
  ]);
  api = cluster;
  workers.push(w1, w2);
  assert.is(cluster.pids().length, 2);

  // The burst, six at a time; when a third is done, one API process and one worker are killed, then replaced.
  let done = 0;
  let killed: Promise<{ apiPid: number; workerHeld: number }> | null = null;
  const kill = async () => {
    const [apiPid] = cluster.pids();
    const replaced = cluster.nextListening();
    await Promise.all([killPid(apiPid), w1.kill('SIGKILL')]);
    workers.splice(workers.indexOf(w1), 1);
    // Exact: a killed worker's locks stay until they are released.
    const workerHeld = Number((await app.db('graphile_worker.jobs').where({ locked_by: w1.workerId }).count({ n: '*' }))[0].n);
    workers.push(await startWorkerProcess(app.databaseUrl));
    await replaced;
    return { apiPid, workerHeld };
  };
  const queue = [...ops];
  const started = Date.now();
  await Promise.all(Array.from({ length: 6 }, async () => {
    for (let op = queue.shift(); op; op = queue.shift()) {
      await send(cluster.url, op);
      if (++done >= ops.length / 3) killed ??= kill();
    }
  }));
  const { apiPid, workerHeld } = await killed!;
  const burstDone = Date.now();
  assert.ok(!cluster.pids().includes(apiPid) && cluster.pids().length === 2, 'the killed API process was replaced');

  // Every request answered for good, and ran once: one payment per buyer, two refunds per refunded payment.
  for (const op of ops) assert.ok(op.status === 200 || op.status === 201, `${op.method} ${op.path}: ${op.status} ${JSON.stringify(op.response)}`);
  const payments = ops.filter((op) => op.path === '/payments');
  assert.is(new Set(payments.map((op) => op.response.id)).size, payments.length);
  for (const op of payments) assert.equal(await app.db('payments').where({ user_id: op.buyerId }).pluck('id'), [op.response.id]);
  const refunded = [...new Set(ops.filter((op) => op.path.endsWith('/refund')).map((op) => op.path.split('/')[2]))];
  for (const id of refunded) assert.is((await app.db('refunds').where({ payment_id: id })).length, 2, `refunds of ${id}`);
  const keys = ops.filter((op) => op.key).map((op) => op.key!);
  assert.equal(await app.db('idempotency_keys').whereIn('key', keys).where({ state: 'done' }).count({ n: '*' }).then((r) => Number(r[0].n)), keys.length);

  // Every payment reaches a final state, every refund settles, within 90 s.
  const accountIds = sellers.map((s) => s.accountId);
  await until(async () => {
    const open = await app.db('payments').whereIn('account_id', accountIds).whereNotIn('status', FINAL).count({ n: '*' });
    const pending = await app.db('refunds').whereIn('account_id', accountIds).where({ status: 'pending' }).count({ n: '*' });
    return Number(open[0].n) + Number(pending[0].n) === 0;
  }, 'every payment and refund to finish', 90_000);
  const settledAt = Date.now();
  for (const op of payments) assert.is((await app.db('payments').where({ id: op.response.id }).first('status')).status, op.outcome);
  for (const id of refunded) {
    const p = await app.db('payments').where({ id }).first('status', 'refunded_amount');
    assert.equal([p.status, Number(p.refunded_amount)], ['partially_refunded', 1200]);
  }

  // Every event of both accounts arrives with a valid signature (at least once: a killed send may repeat).
  const eventIds = await app.db('events').whereIn('account_id', accountIds).pluck('id');
  const verified = () => new Set(receivers.flatMap((r) => r.received.filter((x) => x.verified).map((x) => x.json.id)));
  await until(() => eventIds.every((id) => verified().has(id)), 'every event to be delivered', 90_000);
  const deliveredAt = Date.now();
  assert.ok(receivers.every((r) => r.received.every((x) => x.verified)), 'no delivery with a bad signature');

  // Every ledger balances: each entry sums to zero, and the pending balance is what the payments and refunds say.
  for (const s of sellers) {
    const unbalanced = await postingsOf(app.db, s.accountId).groupBy('entry_id')
      .havingRaw('sum(amount) <> 0').select('entry_id');
    assert.equal(unbalanced, []);
    const pending = Number((await postingsOf(app.db, s.accountId).where({ bucket: 'pending' }).sum({ n: 'amount' }))[0].n);
    const charged = await app.db('payments').where({ account_id: s.accountId }).whereIn('status', ['succeeded', 'partially_refunded', 'refunded'])
      .select(app.db.raw('coalesce(sum(total - fee_amount), 0) as net'), app.db.raw('count(*) as n')).first();
    const refundedSum = Number((await app.db('refunds').where({ account_id: s.accountId, status: 'succeeded' }).sum({ n: 'amount' }))[0].n);
    assert.is(pending, Number(charged.net) - refundedSum);
    const settlements = await postingsOf(app.db, s.accountId).where('entry_id', 'like', '%:settled').countDistinct({ n: 'entry_id' });
    assert.is(Number(settlements[0].n), Number(charged.n), 'one settlement per charged payment');
  }

  const retried = ops.filter((op) => op.attempts > 1).length;
  const timeouts = ops.reduce((n, op) => n + op.timeouts, 0);
  console.log(`\n  ${ops.length} requests in ${burstDone - started} ms (${retried} retried after the kills, ${timeouts} timed out); API process ${apiPid} and `
    + `a worker holding ${workerHeld} job(s) killed; all payments final ${settledAt - burstDone} ms and all events delivered `
    + `${deliveredAt - burstDone} ms after the burst`);
});

t.run();
