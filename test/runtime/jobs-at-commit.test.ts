// A request's jobs are added with its COMMIT, all in one call of public.app_add_jobs (runtime/jobs.ts addJob,
// runtime/request-db.ts jobAtCommit, runtime/migrations/002_add_jobs.ts), in the order they were queued: a key queued
// twice ends as the later job, a preserve_run_at job keeps its pending run time; a rollback, or one to the request's
// savepoint, takes them with it; outside a request's transaction a job is added at once. And what a request makes of
// it: POST /payouts hands the payout to the rail and its event to delivery in one call.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { inTransaction, rollbackToSavepoint, withConnection } from '../../runtime/request-db.js';
import { addJob } from '../../runtime/jobs.js';
import { recordStatements, statementsOf, stopRecordingStatements } from '../helpers/page-plans.js';
import { payoutOwner, VERSION } from '../payouts/payout-fixtures.js';

const t = suite('runtime: jobs added with the COMMIT');
let app: TestApp;
recordStatements();
t.before(async () => { app = await startTestApp(); });
t.after(async () => { stopRecordingStatements(); await app.close(); });

let run = 0;
const JOBS = `select t.identifier as task, j.payload, j.key, j.run_at, j.revision from graphile_worker._private_jobs j
  join graphile_worker._private_tasks t on t.id = j.task_id where j.key like ? or j.payload->>'probe' = ? order by j.id`;
const jobsOf = async (probe: string) => (await app.db.raw(JOBS, [`${probe}:%`, probe])).rows as
  { task: string; payload: Record<string, unknown>; key: string | null; run_at: Date; revision: number }[];

t('in a transaction the jobs wait for the COMMIT and go in as queued: a repeated key ends as the later job', async () => {
  const probe = `probe${++run}`;
  const later = new Date(Date.now() + 86_400_000);
  const kept = new Date(Date.now() + 3_600_000);
  await withConnection(app.db, (db) => inTransaction(db, async (trx) => {
    await addJob(trx, 'probe_task', { probe, n: 1 }, { jobKey: `${probe}:a` });
    await addJob(trx, 'probe_task', { probe, n: 2 });
    await addJob(trx, 'probe_task', { probe, n: 3 }, { jobKey: `${probe}:a`, runAt: later });
    await addJob(trx, 'probe_task', { probe, n: 4 }, { jobKey: `${probe}:b`, runAt: kept });
    await addJob(trx, 'probe_task', { probe, n: 5 }, { jobKey: `${probe}:b`, jobKeyMode: 'preserve_run_at', runAt: later });
    assert.equal(await jobsOf(probe), [], 'nothing added before the COMMIT');
  }));
  const jobs = await jobsOf(probe);
  assert.equal(jobs.map((j) => [j.key, j.payload.n]), [[`${probe}:a`, 3], [null, 2], [`${probe}:b`, 5]]);
  assert.is(new Date(jobs[0].run_at).toISOString(), later.toISOString());
  assert.is(jobs[0].revision, 1, 'the later job replaced the earlier one');
  assert.is(new Date(jobs[2].run_at).toISOString(), kept.toISOString(), 'preserve_run_at kept the pending run time');
});

t('a transaction that fails, or rolls back to the request\'s savepoint, takes its jobs with it', async () => {
  const probe = `probe${++run}`;
  await withConnection(app.db, (db) => inTransaction(db, async (trx) => {
    await addJob(trx, 'probe_task', { probe, n: 1 });
    throw new Error('refused');
  })).catch(() => {});
  assert.equal(await jobsOf(probe), []);
  await withConnection(app.db, (db) => inTransaction(db, async (trx) => {
    await addJob(trx, 'probe_task', { probe, n: 2 });
    await rollbackToSavepoint(trx, 'request_start');
    await addJob(trx, 'probe_task', { probe, n: 3 });
  }, ['SAVEPOINT request_start']));
  assert.equal((await jobsOf(probe)).map((j) => j.payload.n), [3]);
});

t('outside a request\'s transaction, and on a knex transaction, a job is added at once', async () => {
  const probe = `probe${++run}`;
  await withConnection(app.db, async (db) => {
    await addJob(db, 'probe_task', { probe, n: 1 });
    assert.is((await jobsOf(probe)).length, 1);
  });
  await app.db.transaction(async (trx) => {
    await addJob(trx, 'probe_task', { probe, n: 2 });
    assert.is(Number((await trx.raw(`select count(*) from graphile_worker._private_jobs where payload->>'probe' = ?`, [probe])).rows[0].count), 2);
  });
});

t('POST /payouts: the rail\'s job and the event\'s delivery are added with the COMMIT in one call', async () => {
  const o = await payoutOwner(app, 10_000);
  const { res, statements } = await statementsOf(app, 'POST', '/payouts',
    { token: o.key, version: VERSION, body: { account_id: o.accountId, payout_method_id: o.methodId, amount: '25.00' } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const adding = statements.filter((s) => /app_add_jobs?\(/.test(s.text));
  assert.is(adding.length, 1, adding.map((s) => s.text.slice(0, 120)).join('\n'));
  assert.match(adding[0].text, /select public\.app_add_jobs\(.*; COMMIT$/s);
  assert.not.match(adding[0].text, /app_add_job\(/);
  const queued = (await app.db.raw(`select t.identifier as task from graphile_worker._private_jobs j
    join graphile_worker._private_tasks t on t.id = j.task_id where j.key in (?, ?) order by j.id`,
  [`payout_rail_step:${res.body.id}`, `dispatch:${(await app.db('events').whereRaw("data->>'id' = ?", [res.body.id]).first('id')).id}`])).rows;
  assert.equal(queued.map((r: { task: string }) => r.task), ['payout_rail_step', 'dispatch_event']);
});

t.run();
