// Worker liveness: every worker pool beats in worker_heartbeats, and every pool looks for dead ones (at start and at
// each beat). A job locked by a dead pool is released with graphile-worker's force_unlock_workers and runs again
// on a live worker, within dead-after + one beat, instead of after graphile-worker's own 4-hour lock expiry. This
// covers every task, so tasks must be idempotent under re-run (each is a transaction that re-reads its row).
import { hostname } from 'node:os';
import type pg from 'pg';

export interface LivenessSettings {
  /** how often a pool writes its heartbeat and looks for dead pools (ms) */
  heartbeatMs: number;
  /** a pool whose last beat is older is dead; so is one that never beat, once its newest lock is older (ms) */
  deadAfterMs: number;
}

/** Released within 40 s of a death: dead after 30 s, noticed at the next beat of any live pool. */
export const DEFAULT_LIVENESS: LivenessSettings = { heartbeatMs: 10_000, deadAfterMs: 30_000 };

type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/** Writes (or renews) the pool's heartbeat: alive until now + deadAfterMs by its own promise. */
export async function beat(db: Queryable, workerId: string, deadAfterMs: number): Promise<void> {
  await db.query(`insert into worker_heartbeats (worker_id, host, pid, expires_at)
    values ($1, $2, $3, now() + $4 * interval '1 millisecond')
    on conflict (worker_id) do update set beat_at = now(), expires_at = excluded.expires_at`,
  [workerId, hostname(), process.pid, deadAfterMs]);
}

/** Removes the pool's heartbeat when it stopped cleanly (graphile-worker has released its jobs by then). */
export async function withdraw(db: Queryable, workerId: string): Promise<void> {
  await db.query('delete from worker_heartbeats where worker_id = $1', [workerId]);
}

export interface ReleasedWorker {
  workerId: string;
  jobs: number;
}

/**
 * Releases every job held by a dead pool: one whose heartbeat expired, or one without a heartbeat (killed before its
 * first beat, or a worker that does not beat) whose newest lock is older than `deadAfterMs`. Expired heartbeats are
 * then deleted. Safe to run from many processes at once: force_unlock_workers only touches the dead pools' locks.
 */
export async function releaseDeadWorkers(pool: pg.Pool, deadAfterMs: number): Promise<ReleasedWorker[]> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ worker_id: string; jobs: number }>(`
      with held as (
        select locked_by as worker_id, max(locked_at) as newest_lock, count(*)::int as jobs
        from graphile_worker.jobs where locked_by is not null group by locked_by
      )
      select held.worker_id, held.jobs from held left join worker_heartbeats h using (worker_id)
      where h.expires_at < now() or (h.worker_id is null and held.newest_lock < now() - $1 * interval '1 millisecond')`,
    [deadAfterMs]);
    const dead = rows.map((r) => r.worker_id);
    if (dead.length) await client.query('select graphile_worker.force_unlock_workers($1::text[])', [dead]);
    await client.query('delete from worker_heartbeats where expires_at < now()');
    await client.query('commit');
    return rows.map((r) => ({ workerId: r.worker_id, jobs: r.jobs }));
  } catch (e) {
    await client.query('rollback').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

export interface Heartbeat {
  /** stops beating; the heartbeat row stays until withdraw() or until it expires */
  stop(): Promise<void>;
}

/**
 * Beats now and every heartbeatMs, and releases dead pools' jobs after each beat. A failed round (the database
 * briefly away) is reported and the next one tries again; rounds never overlap.
 */
export function startHeartbeat(pool: pg.Pool, workerId: string, settings: LivenessSettings, hooks: {
  onReleased(released: ReleasedWorker[]): void;
  onError(err: Error): void;
}): Heartbeat {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const round = async () => {
    try {
      await beat(pool, workerId, settings.deadAfterMs);
      const released = await releaseDeadWorkers(pool, settings.deadAfterMs);
      if (released.length) hooks.onReleased(released);
    } catch (e) {
      hooks.onError(e as Error);
    }
  };
  let current = round();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = round().then(schedule);
    }, settings.heartbeatMs);
    timer.unref();
  };
  void current.then(schedule);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}

/** Reads WORKER_HEARTBEAT_SECONDS and WORKER_DEAD_AFTER_SECONDS (fractions allowed); unset means the defaults. */
export function livenessFromEnv(env: NodeJS.ProcessEnv = process.env): LivenessSettings {
  const seconds = (name: string, fallbackMs: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallbackMs;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of seconds, not "${raw}"`);
    return Math.round(value * 1000);
  };
  const settings = {
    heartbeatMs: seconds('WORKER_HEARTBEAT_SECONDS', DEFAULT_LIVENESS.heartbeatMs),
    deadAfterMs: seconds('WORKER_DEAD_AFTER_SECONDS', DEFAULT_LIVENESS.deadAfterMs),
  };
  checkLiveness(settings);
  return settings;
}

export function checkLiveness(s: LivenessSettings): void {
  // A live pool must renew its lease well before it runs out, or its jobs would be taken while it runs them.
  if (s.deadAfterMs < 2 * s.heartbeatMs) {
    throw new Error('WORKER_DEAD_AFTER_SECONDS must be at least twice WORKER_HEARTBEAT_SECONDS');
  }
}
