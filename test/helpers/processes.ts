// Real processes on a test's database, as production runs them: `npm run worker` (bin/worker.ts) and `npm start`
// (bin/start.ts with its cluster of API processes), forked so that a test can SIGKILL them; and the row-lock probe
// the crash tests use to hold a process at a known point.
import { fork, type ChildProcess } from 'node:child_process';
import { until } from './poll.js';
import { createServer } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { projectRoot } from '../../runtime/project-root.js';
import type { WorkerProcessMessage } from '../../bin/worker.js';

/** Short liveness settings: a killed worker's jobs are released about 2 s after its last beat. */
export const FAST_LIVENESS = { WORKER_HEARTBEAT_SECONDS: '0.25', WORKER_DEAD_AFTER_SECONDS: '2' };

function forkTs(file: string, env: Record<string, string>, args: string[] = [], execArgv = ['--import', 'tsx'], showLogs = false): ChildProcess {
  return fork(join(projectRoot, file), args, {
    execArgv,
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', ...FAST_LIVENESS, ...env },
    // The processes log to standard output (pino): shown only when asked, so that a suite can say why a process died.
    stdio: ['ignore', showLogs ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve();
  else child.once('exit', () => resolve());
});

function firstMessage<T>(child: ChildProcess, accept: (m: any) => T | undefined, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown) => {
      const value = accept(m);
      if (value !== undefined) {
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(value);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`${what}: the process exited (code ${code}) first`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export interface WorkerProcess {
  pid: number;
  /** its graphile-worker pool id (jobs' locked_by) */
  workerId: string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** `npm run worker` on the database, resolved once its worker runs. */
export async function startWorkerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<WorkerProcess> {
  const child = forkTs('bin/worker.ts', { DATABASE_URL: databaseUrl, ...env });
  const workerId = await firstMessage(child, (m: WorkerProcessMessage) => (m?.type === 'worker-ready' ? m.workerId : undefined), 'worker start');
  return {
    pid: child.pid!,
    workerId,
    async kill(signal = 'SIGKILL') {
      child.kill(signal);
      await exited(child);
    },
  };
}

/** Worker processes a crash test starts and stops; whatever is still running at the end is killed by `killAll`. */
export function workerProcesses(databaseUrl: string) {
  const running: WorkerProcess[] = [];
  return {
    async start(): Promise<WorkerProcess> {
      const w = await startWorkerProcess(databaseUrl);
      running.push(w);
      return w;
    },
    async stop(w: WorkerProcess, signal: NodeJS.Signals): Promise<void> {
      await w.kill(signal);
      running.splice(running.indexOf(w), 1);
    },
    async killAll(): Promise<void> {
      for (const w of running.splice(0)) await w.kill();
    },
  };
}

export interface ApiCluster {
  url: string;
  /** the API processes now listening */
  pids(): number[];
  /** resolves with the pid of the next API process to start listening (a replacement) */
  nextListening(): Promise<number>;
  stop(): Promise<void>;
}

/** `npm start` on the database with `processes` API processes (WEB_CONCURRENCY) on a free port: the TypeScript
 * through tsx, or with `compiled` as `npm start` itself runs it (bin/launch.mjs: dist/, built when stale). */
export async function startApiCluster(databaseUrl: string, o: {
  processes: number; runWorker: boolean; env?: Record<string, string>; compiled?: boolean; showLogs?: boolean;
  /** the primary's warm-up server listens (bin/warm-up.ts), before any API process: its base URL */
  onWarmUp?: (url: string) => void;
}): Promise<ApiCluster> {
  const port = await freePort();
  const env = { DATABASE_URL: databaseUrl, PORT: String(port), WEB_CONCURRENCY: String(o.processes), RUN_WORKER: String(o.runWorker), ...o.env };
  const primary = o.compiled ? forkTs('bin/launch.mjs', env, ['start'], [], o.showLogs) : forkTs('bin/start.ts', env, [], undefined, o.showLogs);
  const live = new Set<number>();
  const waiting: ((pid: number) => void)[] = [];
  // What the primary said, in order: a start or stop that takes too long fails naming its step and these, instead of
  // holding the suite until CI's own limit.
  const heard: string[] = [];
  let started!: () => void;
  const allStarted = new Promise<void>((resolve, reject) => {
    started = resolve;
    primary.once('exit', (code, signal) => reject(new Error(`npm start exited (${signal ?? `code ${code}`}) before its API processes listened; heard: ${heard.join(', ') || 'nothing'}`)));
  });
  primary.on('message', (m: { type?: string; pid?: number; url?: string }) => {
    heard.push(`${m?.type}${m?.pid ? ` ${m.pid}` : ''}`);
    if (m?.type === 'warm-up-listening') o.onWarmUp?.(`${m.url}/api/v1`);
    if (m?.type !== 'api-listening' || !m.pid) return;
    for (const pid of live) if (!alive(pid)) live.delete(pid);
    live.add(m.pid);
    if (live.size >= o.processes) started();
    waiting.shift()?.(m.pid);
  });
  try {
    await withinStep(allStarted, START_LIMIT_MS, () => `npm start: ${o.processes} API process(es) listening; heard: ${heard.join(', ') || 'nothing'}; its processes: ${describeTree(primary.pid!)}`);
  } catch (e) {
    killTree(primary.pid!);
    throw e;
  }
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    pids: () => [...live].filter(alive),
    nextListening: () => withinStep(new Promise<number>((resolve) => waiting.push(resolve)), START_LIMIT_MS,
      () => `npm start: a replacement API process listening; heard: ${heard.join(', ')}; its processes: ${describeTree(primary.pid!)}`),
    async stop() {
      primary.kill('SIGTERM');
      try {
        await withinStep(exited(primary), STOP_LIMIT_MS, () => `npm start: its exit after SIGTERM; heard: ${heard.join(', ')}; its processes: ${describeTree(primary.pid!)}`);
      } catch (e) {
        killTree(primary.pid!);
        await exited(primary);
        throw e;
      }
    },
  };
}

// Far above what a start or a stop takes on a loaded two-core machine (a few seconds, a stale dist/ included).
const START_LIMIT_MS = 120_000;
const STOP_LIMIT_MS = 60_000;

/** `promise`, or an error naming the step once `ms` have passed without it settling. */
export function withinStep<T>(promise: Promise<T>, ms: number, step: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${step()}`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The process and its descendants: pid, state and command line of each, from /proc. */
function processTree(root: number): { pid: number; state: string; command: string }[] {
  const children = new Map<number, number[]>();
  const info = new Map<number, { state: string; command: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      info.set(Number(entry), { state, command });
      children.set(Number(ppid), [...(children.get(Number(ppid)) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: { pid: number; state: string; command: string }[] = [];
  const visit = (pid: number) => {
    const i = info.get(pid);
    if (i) tree.push({ pid, ...i });
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return tree;
}

const describeTree = (root: number) => processTree(root).map((p) => `${p.pid} ${p.state} ${p.command.replace(projectRoot, '.')}`).join('; ') || 'none';

function killTree(root: number): void {
  for (const { pid } of processTree(root).reverse()) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILLs a process by pid and waits until it is gone. */
export async function killPid(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  while (alive(pid)) await new Promise((r) => setTimeout(r, 10));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = (server.address() as { port: number });
      server.close(() => resolve(port));
    });
  });
}

/**
 * A row lock the test holds on its own connection: `begin; select ... for update`, so that a process touching the
 * row waits there. waitForWaiters() resolves once `n` other backends wait on it (pg_stat_activity: wait_event_type
 * Lock, blocked by this backend); release() rolls back.
 */
export async function holdRowLock(db: Knex, table: string, id: string) {
  const trx = await db.transaction();
  await trx(table).where({ id }).forUpdate().first('id');
  const [{ pid }] = (await trx.raw('select pg_backend_pid() as pid')).rows;
  return {
    waitForWaiters: (n = 1, timeoutMs = 30_000): Promise<number[]> => until(async () => {
      const { rows } = await db.raw(`select pid from pg_stat_activity
        where wait_event_type = 'Lock' and ? = any(pg_blocking_pids(pid))`, [pid]);
      return rows.length >= n ? rows.map((r: { pid: number }) => r.pid) : null;
    }, `a process waiting on the lock of ${table} ${id}`, { timeoutMs, everyMs: 20 }),
    release: () => trx.rollback(),
  };
}
