// A graphile-worker pool that says it is alive (runtime/worker-liveness.ts): run inside an API process
// (runtime/server.ts) or alone (bin/worker.ts), any number of them on one database.
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import pg from 'pg';
import { run, Logger as WorkerLogger, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import { checkLiveness, DEFAULT_LIVENESS, startHeartbeat, withdraw, type LivenessSettings } from './worker-liveness.js';

export interface WorkerOptions {
  databaseUrl: string;
  tasks: TaskList;
  /** tasks to run on a schedule (crontab lines: `minute hour day month weekday task`) and once when the worker starts */
  schedule?: { crontab: string[]; onStart: string[] };
  logger: Logger;
  /** jobs run at once (default 4) */
  concurrency?: number;
  /** ms between polls for jobs due later (new jobs arrive by LISTEN/NOTIFY at once; default 500) */
  pollInterval?: number;
  liveness?: Partial<LivenessSettings>;
}

export interface RunningWorker {
  /** graphile-worker's pool id: what the jobs it holds say in locked_by, and its worker_heartbeats row */
  id: string;
  runner: Runner;
  /** settles when the worker has stopped, by stop() or on its own (a fatal error) */
  done: Promise<void>;
  stop(): Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const { logger } = options;
  const liveness = { ...DEFAULT_LIVENESS, ...options.liveness };
  checkLiveness(liveness);
  // The pool is ours: an idle connection the server terminates (a restart, a dropped database) is logged, not an
  // unhandled 'error' that ends the process; and it is closed after the worker stops.
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 6 });
  const lost = (err: Error) => logger.warn({ err: err.message }, 'worker database connection lost');
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));

  // graphile-worker names the pool when it creates it (pool:create, during run()); jobs are locked under that id.
  const events: WorkerEvents = new EventEmitter();
  let id = '';
  events.on('pool:create', ({ workerPool }) => { id = workerPool.id; });
  const runner = await run({
    pgPool: pool,
    taskList: options.tasks,
    crontab: (options.schedule?.crontab ?? []).join('\n'),
    concurrency: options.concurrency ?? 4,
    pollInterval: options.pollInterval ?? 500,
    noHandleSignals: true,
    events,
    logger: new WorkerLogger((scope) => (level, message, meta) => {
      if (level === 'error' || level === 'warning') logger.warn({ scope, meta }, message);
    }),
  });
  if (!id) throw new Error('graphile-worker did not report its pool id');

  const heartbeat = startHeartbeat(pool, id, liveness, {
    onReleased: (released) => logger.warn({ released }, 'released the jobs of dead workers'),
    onError: (err) => logger.warn({ err: err.message }, 'worker heartbeat failed'),
  });
  for (const task of options.schedule?.onStart ?? []) await runner.addJob(task, {}, { jobKey: `on-start:${task}` });

  let stopping: Promise<void> | null = null;
  const finish = async () => {
    await heartbeat.stop();
    await withdraw(pool, id).catch(() => {});
    await pool.end();
  };
  // A runner that stops on its own (a fatal error) holds no jobs any more: stop beating for it.
  const done = runner.promise.then(() => {}, (e) => { logger.error({ err: String(e) }, 'worker stopped'); })
    .then(() => { stopping ??= finish(); return stopping; });
  return {
    id,
    runner,
    done,
    async stop() {
      await runner.stop().catch(() => {});
      await done;
    },
  };
}
