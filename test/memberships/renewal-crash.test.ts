// Renewals never charge twice, even when a worker dies mid-renewal: a sandbox clock advanced over two renewals of forty
// memberships, with two worker processes, the one advancing the clock SIGKILLed in the middle of the renewals (held
// there by a row lock this test takes on a membership, as test/runtime/crash-recovery.test.ts does); the other takes
// the advance over once liveness releases the dead worker's job, and every membership ends with one charge per period.
// Then the step itself raced: two runs of the same due step and the sweep, all waiting on the membership at once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { makeUser } from '../helpers/fixtures.js';
import { postingsOf } from '../helpers/ledger.js';
import { holdRowLock, workerProcesses, type WorkerProcess } from '../helpers/processes.js';
import { makeSeller, makeToken, makeVariant, VERSION } from '../payments/payment-fixtures.js';
import { runOnClock } from '../../runtime/clock.js';
import { membershipPeriodStepTask } from '../../handlers/memberships/period-step.js';
import { membershipPeriodSweep } from '../../handlers/memberships/period-sweep.js';

const t = suite('memberships: one renewal charge per period, across two workers and a crash');
let app: TestApp;
let workers: ReturnType<typeof workerProcesses>;
t.before(async () => { app = await startTestApp({ worker: false }); workers = workerProcesses(app.databaseUrl); });
t.after(async () => {
  await workers.killAll();
  await app.close();
});

const DAY = 86_400_000;
const PERIOD_DAYS = 30;
const MEMBERSHIPS = 40;
const iso = (ms: number) => new Date(ms).toISOString();

const worker = () => workers.start();
const stop = (w: WorkerProcess, signal: NodeJS.Signals) => workers.stop(w, signal);

async function ok(key: string, method: string, path: string, body?: unknown) {
  const res = await app.request(method, path, { token: key, version: VERSION, body });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

type Seller = Awaited<ReturnType<typeof makeSeller>>;

/** A seller on a clock standing at a whole second tomorrow, with a monthly plan. */
async function shop() {
  const s = await makeSeller(app.db);
  const t0 = Math.ceil((Date.now() + DAY) / 1000) * 1000;
  const clock = await ok(s.key, 'POST', '/sandbox/clocks', { account_id: s.accountId, frozen_time: iso(t0), name: 'renewal crash' });
  const variant = await makeVariant(app, s.accountId, { planType: 'renewal', billingPeriodDays: PERIOD_DAYS, price: 1200, renewalPrice: 900 });
  return { ...s, clockId: clock.id as string, t0, planId: variant.id };
}

/** A buyer pays for the plan with a card they save; a worker process collects it. Returns the payment's id. */
async function buy(s: Seller & { planId: string }): Promise<string> {
  const buyer = await makeUser(app.db);
  const token = await makeToken(app, s.clientId);
  const p = await ok(s.key, 'POST', '/payments', {
    account_id: s.accountId, confirmation_token: token, user_id: buyer.id, plan_id: s.planId, save_payment_method: true,
  });
  return p.id;
}

async function collected(s: Seller, ids: string[]) {
  await until(async () => {
    const done = await app.db('payments').whereIn('id', ids).where({ status: 'succeeded' }).count({ n: '*' });
    return Number(done[0].n) === ids.length;
  }, `${ids.length} purchases collected by the workers`, { timeoutMs: 60_000, everyMs: 100 });
  const payments = await app.db('payments').whereIn('id', ids).select('membership_id');
  return app.db('memberships').whereIn('id', payments.map((p) => p.membership_id)).orderBy('id');
}

async function advance(s: Seller & { clockId: string }, to: number) {
  const res = await ok(s.key, 'POST', `/sandbox/clocks/${s.clockId}/advance`, { frozen_time: iso(to) });
  assert.is(res.status, 'advancing');
}
const clockReady = (s: Seller & { clockId: string }, timeoutMs = 120_000) => until(async () => {
  const clock = await ok(s.key, 'GET', `/sandbox/clocks/${s.clockId}`);
  return clock.status === 'ready' ? clock : null;
}, 'the clock to be ready', { timeoutMs, everyMs: 100 });

const renewalsOf = (accountId: string) => app.db('payments').where({ account_id: accountId, billing_reason: 'subscription_cycle' });
const ledgerSum = async (accountId: string) => Number((await postingsOf(app.db, accountId).sum({ n: 'amount' }))[0].n ?? 0);

/** Every membership has one succeeded renewal for each of `periods` (by period start) and nothing else; its period
 * end moved by exactly that many periods; each payment settled once in a balanced ledger. */
async function oneChargePerPeriod(accountId: string, before: Record<string, any>[], periods: number) {
  const renewals = await renewalsOf(accountId).select('id', 'membership_id', 'renewal_period_start', 'status');
  for (const m of before) {
    const end = new Date(m.current_period_end).getTime();
    const expected = Array.from({ length: periods }, (_, i) => iso(end + i * PERIOD_DAYS * DAY));
    const mine = renewals.filter((r) => r.membership_id === m.id);
    assert.equal(mine.map((r) => iso(r.renewal_period_start)).sort(), expected, `membership ${m.id}: one payment per period`);
    assert.ok(mine.every((r) => r.status === 'succeeded'), `membership ${m.id}: ${JSON.stringify(mine)}`);
    const now = await app.db('memberships').where({ id: m.id }).first();
    assert.is(now.status, 'active');
    assert.is(iso(now.current_period_end), iso(end + periods * PERIOD_DAYS * DAY), `membership ${m.id} moved by ${periods} periods`);
  }
  // One settlement entry per collected payment (purchases and renewals), and the ledger balances.
  const succeeded = await app.db('payments').where({ account_id: accountId, status: 'succeeded' }).pluck('id');
  const settled = await postingsOf(app.db, accountId).where('entry_id', 'like', '%:settled').distinct('entry_id');
  assert.equal(settled.map((r) => r.entry_id).sort(), succeeded.map((id) => `${id}:settled`).sort(), 'each payment settled once');
  assert.is(await ledgerSum(accountId), 0, 'the ledger balances');
  const fees = await app.db('payment_fees').whereIn('payment_id', renewals.map((r) => r.id)).count({ n: '*' });
  const perPayment = await app.db('payment_fees').where({ payment_id: succeeded[0] }).count({ n: '*' });
  assert.is(Number(fees[0].n), renewals.length * Number(perPayment[0].n), 'fees charged once per renewal');
}

t('two workers, the one advancing the clock SIGKILLed mid-renewals: exactly one charge per membership and period', async () => {
  const [first, second] = [await worker(), await worker()];
  const s = await shop();
  const purchases = await Promise.all(Array.from({ length: MEMBERSHIPS }, () => buy(s)));
  const memberships = await collected(s, purchases);
  assert.is(memberships.length, MEMBERSHIPS);
  const periodEnd = s.t0 + PERIOD_DAYS * DAY;
  assert.ok(memberships.every((m) => m.status === 'active' && iso(m.current_period_end) === iso(periodEnd)), 'all renew at the same instant');

  // The sweep steps the due memberships in (due_at, id) order: the one in the middle stops the advance there.
  const middle = memberships[MEMBERSHIPS / 2];
  const lock = await holdRowLock(app.db, 'memberships', middle.id);
  const target = s.t0 + 65 * DAY;
  await advance(s, target);
  await lock.waitForWaiters(1, 60_000);
  const [job] = await app.db('graphile_worker.jobs').where({ key: `advance_clock:${s.clockId}` }).select('locked_by');
  const holder = [first, second].find((w) => w.workerId === job?.locked_by);
  assert.ok(holder, `a worker process holds the advance (${JSON.stringify(job)})`);
  const survivor = holder === first ? second : first;
  const charged = (await renewalsOf(s.accountId)).length;
  assert.ok(charged > 0 && charged < MEMBERSHIPS, `stopped in the middle of the batch: ${charged} of ${MEMBERSHIPS} renewals written`);

  await stop(holder, 'SIGKILL');
  const killedAt = Date.now();
  await lock.release();
  const ready = await clockReady(s);
  console.log(`\n  recovery (advance_clock): the other worker finished the advance ${Date.now() - killedAt} ms after the kill `
    + `(${charged} of ${MEMBERSHIPS} first renewals written before it)`);
  assert.is(ready.frozen_time, iso(target));
  // The clock turns ready in the task's own transaction; graphile-worker deletes the finished job just after it
  // returns, so the job's row is awaited, not read once.
  await until(async () => (await app.db('graphile_worker.jobs').where({ key: `advance_clock:${s.clockId}` }).first('id')) === undefined,
    'the advance job to be completed by the surviving worker', { timeoutMs: 10_000, everyMs: 50 });
  await oneChargePerPeriod(s.accountId, memberships, 2);
  await stop(survivor, 'SIGTERM');
});

t('the same due step run twice at once, and the sweep beside them: one charge', async () => {
  const w = await worker();
  const s = await shop();
  const [membership] = await collected(s, [await buy(s)]);
  await stop(w, 'SIGTERM');
  const due = new Date(membership.due_at).toISOString();
  const step = membershipPeriodStepTask(app.db);
  const payload = { membership_id: membership.id, due_at: due };
  // All three wait on the membership's row lock at once, at the due instant on the clock, then go in turn.
  const lock = await holdRowLock(app.db, 'memberships', membership.id);
  let runs: Promise<unknown> = Promise.resolve();
  try {
    runs = runOnClock({ clockId: s.clockId, now: due }, () => Promise.all([
      step(payload, {} as never), step(payload, {} as never), membershipPeriodSweep.run(app.db),
    ]));
    // The first waits on this transaction, the others queue behind it (pg_blocking_pids names the first): counted
    // as this database's backends waiting on a lock.
    await until(async () => {
      const [{ n }] = (await app.db.raw(`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query like '%from memberships m where m.id = $1 for update'`)).rows;
      return n >= 3;
    }, 'three steps waiting on the membership', { timeoutMs: 30_000, everyMs: 20 });
  } finally {
    await lock.release();
  }
  await runs;
  const renewals = await renewalsOf(s.accountId).select('id', 'status', 'renewal_period_start');
  assert.is(renewals.length, 1, JSON.stringify(renewals));
  assert.is(iso(renewals[0].renewal_period_start), due);
  const waiting = await app.db('memberships').where({ id: membership.id }).first('due_at');
  assert.is(waiting.due_at, null, 'not due while its renewal is collected');

  // A worker collects it (the job waits on the standing clock); the clock then passes the due instant: nothing more.
  const collector = await worker();
  await until(async () => (await app.db('payments').where({ id: renewals[0].id }).first('status')).status === 'succeeded',
    'the renewal collected', { timeoutMs: 30_000, everyMs: 100 });
  await advance(s, Date.parse(due) + DAY);
  await clockReady(s, 30_000);
  await oneChargePerPeriod(s.accountId, [membership], 1);
  await stop(collector, 'SIGTERM');
});

t.run();
