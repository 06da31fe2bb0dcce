// N API processes under node's cluster module: they share the listening socket (bin/listen-socket.ts, sent to each
// with its database) and accept connections from it themselves, and one that dies is replaced. Nothing they need from
// each other lives in a process: all state is in PostgreSQL.
import cluster, { type Worker } from 'node:cluster';
import { answerMetricsRequests } from './metrics-aggregator.js';
import { LOAD_MESSAGE, setUpApiCluster } from './api-cluster.mjs';
import type { ListenSocket, SocketHandle } from './listen-socket.js';

/** What an API process (bin/api-process.ts) tells the primary. `listen-socket` comes with the process's copy of the
 * listening socket, asked for by `give-listen-socket`. */
export type ApiProcessMessage =
  | { type: 'awaiting-database' }
  | { type: 'listening'; url: string }
  | { type: 'listen-socket' }
  | { type: 'failed'; message: string };

/** What the primary tells an API process: its answer to `awaiting-database`, the migrated database to serve, comes
 * with the listening socket to accept from; `give-listen-socket` asks for a copy of it back. */
export type PrimaryMessage = { type: 'database'; url: string } | { type: 'give-listen-socket' };

export interface SupervisorOptions {
  count: number;
  /** the API process's entry file */
  exec: string;
  /** bin/api-boot.cjs, when each process is to boot first and load `exec` once told (bin/api-cluster.mjs); the
   * processes the launcher forked that way before this ran are taken over, not forked again */
  boot?: string;
  /** the database's URL once it is migrated; a process loads its code meanwhile, then asks for it */
  database: Promise<string>;
  /** the first processes load their code once this settles (default: at once) */
  loadAfter?: Promise<unknown>;
  /** the socket every process accepts from, sent with the database; null: each listens on PORT through the cluster
   * module (NODE_CLUSTER_SCHED_POLICY=rr: the primary accepts and hands connections out round robin) */
  listen: ListenSocket | null;
  /** where the primary logs: asked for when a process exits */
  logger(): { warn(details: object, message: string): void };
  /** each time an API process starts listening (the first ones and every replacement) */
  onListening?(pid: number, url: string): void;
  /** how long a process may take to finish its requests after SIGTERM before it is killed */
  drainLimitMs: number;
}

export interface Supervisor {
  /** the URL the processes serve, once all of the first ones listen; rejects if one fails to start */
  ready: Promise<string>;
  stop(): Promise<void>;
}

// A process that dies before it listens (the database away, a bad setting) is started again after a growing
// pause, so a persistent fault does not become a hot loop.
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

export function superviseApiProcesses(options: SupervisorOptions): Supervisor {
  setUpApiCluster(options.exec, options.boot);
  // Forked by the launcher (bin/launch.mjs), booted or booting, waiting to be told to load.
  const early = options.boot ? Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead()) : [];
  const live = new Set<Worker>();
  const restarts = new Set<NodeJS.Timeout>();
  const answerMetrics = answerMetricsRequests();
  let stopping = false;
  let started = 0;
  let retryMs = FIRST_RETRY_MS;
  let resolveReady!: (url: string) => void;
  let rejectReady!: (err: Error) => void;
  const ready = new Promise<string>((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  let isReady = false;

  const fork = () => {
    const child = early.shift() ?? cluster.fork();
    live.add(child);
    let listening = false;
    const send = (message: PrimaryMessage, handle?: SocketHandle) => { if (child.isConnected()) child.send(message, handle as never); };
    child.on('message', (message: ApiProcessMessage, handle: SocketHandle | undefined) => {
      if (answerMetrics(child, message)) return;
      if (message.type === 'awaiting-database') {
        // Asked, not pushed: a message sent before the process listens for it would be lost.
        void options.database.then((url) => send({ type: 'database', url }, options.listen?.handle));
      } else if (message.type === 'listen-socket' && handle) {
        options.listen?.keep(handle);
      } else if (message.type === 'listening') {
        listening = true;
        // The primary's own copy is lent to its warm-up server (bin/warm-up.ts), which closes it when it stops: the
        // primary keeps this process's copy instead, for the processes after it.
        if (options.listen?.lent) send({ type: 'give-listen-socket' });
        retryMs = FIRST_RETRY_MS;
        options.onListening?.(child.process.pid!, message.url);
        if (!isReady && ++started === options.count) {
          isReady = true;
          resolveReady(message.url);
        }
      } else if (message.type === 'failed' && !isReady) {
        // At start-up a failure is a configuration problem (the port taken, ...): report it instead of retrying.
        rejectReady(new Error(message.message));
      }
    });
    if (options.boot) void (options.loadAfter ?? Promise.resolve()).then(() => { if (child.isConnected()) child.send(LOAD_MESSAGE); });
    child.on('exit', (code, signal) => {
      live.delete(child);
      if (stopping) return;
      if (!isReady) {
        rejectReady(new Error(`an API process exited (${signal ?? `code ${code}`}) before it listened`));
        return;
      }
      const pause = listening ? 0 : retryMs;
      if (!listening) retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      options.logger().warn({ pid: child.process.pid, code, signal, restartInMs: pause }, 'an API process exited; starting another');
      // Not unref'd: while no API process runs, this timer is what keeps the primary alive to start the next one.
      const restart = setTimeout(() => {
        restarts.delete(restart);
        if (!stopping) fork();
      }, pause);
      restarts.add(restart);
    });
  };
  for (let i = 0; i < options.count; i++) fork();

  return {
    ready,
    async stop() {
      stopping = true;
      for (const restart of restarts) clearTimeout(restart);
      const exits = [...live].map((child) => new Promise<void>((resolve) => {
        if (child.isDead()) return resolve();
        child.once('exit', () => resolve());
        child.process.kill('SIGTERM');
        // Each process drains its own requests within the limit; one that does not is ended.
        setTimeout(() => child.process.kill('SIGKILL'), options.drainLimitMs + 2000).unref();
      }));
      await Promise.all(exits);
    },
  };
}
