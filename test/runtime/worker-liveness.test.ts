// Worker liveness: which pools count as dead, what releasing their jobs does, and the settings. Locks are set on
// the job table directly, so each case is exact; the crash tests show the same over real killed processes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { addJob } from '../../runtime/jobs.js';
import { beat, releaseDeadWorkers, startHeartbeat, withdraw } from '../../runtime/worker-liveness.js';
import { livenessFromEnv } from '../../runtime/worker-liveness.js';

const t = suite('runtime: worker liveness');
let app: TestApp;
let pool: pg.Pool;
t.before(async () => {
  app = await startTestApp();
  pool = new pg.Pool({ connectionString: app.databaseUrl, max: 2 });
});
t.after(async () => {
  await pool.end();
  await app.close();
});

/** A job of a task no worker here runs, locked as `by` would have locked it `ageMs` ago. */
async function lockedJob(by: string, ageMs: number): Promise<string> {
  const key = `liveness:${by}:${ageMs}:${Math.random()}`;
  await addJob(app.db, 'liveness_probe', {}, { jobKey: key });
  const [{ id }] = (await app.db.raw(`update graphile_worker._private_jobs set locked_by = ?, locked_at = now() - ? * interval '1 millisecond'
    where key = ? returning id`, [by, ageMs, key])).rows;
  return String(id);
}

const lockOf = async (id: string) => (await app.db('graphile_worker.jobs').where({ id }).first('locked_by')).locked_by as string | null;

t('jobs of a pool whose heartbeat ran out, or that never beat and locked long ago, are released; the rest stay', async () => {
  await beat(pool, 'pool-alive', 30_000);
  await beat(pool, 'pool-expired', 30_000);
  await app.db('worker_heartbeats').where({ worker_id: 'pool-expired' }).update({ expires_at: app.db.raw("now() - interval '1 second'") }); // sql-state-write: runtime test: a worker pool that died (heartbeat run out) is what no live product process writes
  const alive = await lockedJob('pool-alive', 3_600_000); // an old lock of a beating pool: a long job, left alone
  const expired = await lockedJob('pool-expired', 1000);
  const expired2 = await lockedJob('pool-expired', 2000);
  const silentOld = await lockedJob('pool-silent', 60_000); // killed before its first beat
  const silentNew = await lockedJob('pool-starting', 1000); // about to write its first beat

  const released = await releaseDeadWorkers(pool, 30_000);
  assert.equal(released.sort((a, b) => a.workerId.localeCompare(b.workerId)),
    [{ workerId: 'pool-expired', jobs: 2 }, { workerId: 'pool-silent', jobs: 1 }]);
  assert.is(await lockOf(expired), null);
  assert.is(await lockOf(expired2), null);
  assert.is(await lockOf(silentOld), null);
  assert.is(await lockOf(alive), 'pool-alive');
  assert.is(await lockOf(silentNew), 'pool-starting');
  // A released job is due at once (run_at unchanged, in the past), with its attempt counted.
  const job = await app.db('graphile_worker.jobs').where({ id: expired }).first('run_at', 'attempts');
  assert.ok(Date.parse(job.run_at) <= Date.now());
  // The expired heartbeat is gone; the live one stays.
  assert.equal((await app.db('worker_heartbeats').orderBy('worker_id').pluck('worker_id')), ['pool-alive']);
  assert.equal(await releaseDeadWorkers(pool, 30_000), [], 'a second pass finds nothing');
  await withdraw(pool, 'pool-alive');
  await app.db.raw("delete from graphile_worker._private_jobs where key like 'liveness:%'");
});

t('a heartbeat beats now and then every interval, renewing its lease; stop() ends it and withdraw() removes it', async () => {
  const hb = startHeartbeat(pool, 'pool-beating', { heartbeatMs: 50, deadAfterMs: 5000 }, {
    onReleased: () => {}, onError: (err) => { throw err; },
  });
  const row = async () => app.db('worker_heartbeats').where({ worker_id: 'pool-beating' })
    .first('beat_at', 'pid', app.db.raw('extract(epoch from expires_at - beat_at) as lease'));
  let first;
  while (!(first = await row())) await new Promise((r) => setTimeout(r, 10));
  assert.is(first.pid, process.pid);
  assert.is(Number(first.lease), 5);
  // Beaten again: awaited, not timed (a loaded machine may take longer than a few intervals to write it).
  await until(async () => Date.parse((await row()).beat_at) > Date.parse(first.beat_at), 'a second beat');
  await hb.stop();
  const last = (await row()).beat_at;
  await new Promise((r) => setTimeout(r, 150));
  assert.is((await row()).beat_at, last, 'no beat after stop()');
  await withdraw(pool, 'pool-beating');
  assert.is(await row(), undefined);
});

t('settings: defaults release within a minute; seconds may be fractions; nonsense and a lease shorter than two beats are refused', () => {
  const d = livenessFromEnv({});
  assert.equal(d, { heartbeatMs: 10_000, deadAfterMs: 30_000 });
  assert.ok(d.heartbeatMs + d.deadAfterMs < 60_000);
  assert.equal(livenessFromEnv({ WORKER_HEARTBEAT_SECONDS: '0.25', WORKER_DEAD_AFTER_SECONDS: '2' }), { heartbeatMs: 250, deadAfterMs: 2000 });
  assert.throws(() => livenessFromEnv({ WORKER_HEARTBEAT_SECONDS: 'soon' }), /WORKER_HEARTBEAT_SECONDS must be a positive number/);
  assert.throws(() => livenessFromEnv({ WORKER_DEAD_AFTER_SECONDS: '0' }), /WORKER_DEAD_AFTER_SECONDS must be a positive number/);
  assert.throws(() => livenessFromEnv({ WORKER_HEARTBEAT_SECONDS: '10', WORKER_DEAD_AFTER_SECONDS: '15' }), /at least twice/);
});

t.run();
