// One API process under `npm start` (bin/start.ts forks WEB_CONCURRENCY of them): serves the API on the socket the
// primary shares (bin/listen-socket.ts) and, unless RUN_WORKER=false, runs a background worker too. It loads its code
// while the primary migrates the database, then asks the primary for it and the socket (bin/supervisor.ts); run
// alone, it serves DATABASE_URL on PORT. SIGTERM or SIGINT finishes in-flight requests (at most DRAIN_LIMIT_MS), stops
// the worker and exits. The same bundle, loaded by the primary itself, serves the first requests of a start while
// this process still loads (serveWarmUp, bin/warm-up.ts).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createKnex } from '../runtime/db.js';
import { poolDatabaseState } from '../runtime/database-current.js';
import { startServer, type RunningServer } from '../runtime/server.js';
import { createLogger } from '../runtime/logger.js';
import { livenessFromEnv } from '../runtime/worker-liveness.js';
import { webhookDestinationPolicy } from '../handlers/webhooks/destination-policy.js';
import { operations } from '../generated/routes.js';
import { taskList, schedule } from '../wiring/tasks.js';
import { extraRoutes, mounts } from '../wiring/routes.js';
import type { ApiProcessMessage, PrimaryMessage } from './supervisor.js';
import type { SocketHandle } from './listen-socket.js';
import { requestMetrics } from '../runtime/metrics.js';
import { gatherAcrossCluster } from './cluster-metrics.js';
import { DRAIN_LIMIT_MS, portFromEnv, runWorkerFromEnv, unreadyBeforeCloseMsFromEnv } from './process-settings.js';
import { WARM_UP_LOAD } from './warm-up-load.mjs';

const WORKER_START_DELAY_MS = 300;
const send = (message: ApiProcessMessage, handle?: SocketHandle) => process.send?.(message, handle as never);
const logger = createLogger();
const port = portFromEnv();
const host = process.env.HOST ?? '127.0.0.1';

// No top-level await: `npm start` runs this file as a CommonJS bundle, compiled from V8's code cache (bin/build.mjs).
// Loaded by the primary for its warm-up server, it only exports serveWarmUp.
if (!(globalThis as Record<symbol, unknown>)[WARM_UP_LOAD]) void main();

/** The API on the primary's own copy of the socket (`listenOn`) until an API process takes over, if the database is
 * current (null: not served): no worker, each connection answered once (Connection: close), so that none is left
 * idle to be cut when it stops. */
export async function serveWarmUp(url: string, listenOn: () => SocketHandle): Promise<{ url: string; stop(): Promise<void> } | null> {
  // The settings the primary checks too, before anything is served with one that would stop it.
  livenessFromEnv();
  webhookDestinationPolicy();
  const db = createKnex(url);
  if (!(await poolDatabaseState(db)).current) {
    await db.destroy();
    return null;
  }
  const server = await startServer({
    db, databaseUrl: url, operations, tasks: taskList(db), schedule, extraRoutes, mounts, port, host, listenOn: listenOn(), logger,
    worker: false, requestMetrics: requestMetrics(),
  });
  server.server.maxRequestsPerSocket = 1;
  rewriteCodeCacheAfterFirstApiRequest(server.server);
  return {
    url: server.url,
    stop: async () => {
      await server.close();
      await db.destroy();
    },
  };
}

async function main(): Promise<void> {
  const { url, listenOn } = await databaseFromPrimary();
  const db = createKnex(url);
  const unreadyBeforeCloseMs = unreadyBeforeCloseMsFromEnv();
  // A scrape answered here reports every API process's requests (bin/cluster-metrics.ts).
  const metrics = requestMetrics();
  const gather = gatherAcrossCluster(metrics.registry);
  let stopping = false;
  let server: RunningServer;
  try {
    server = await startServer({
      db, databaseUrl: url, operations, tasks: taskList(db), schedule, extraRoutes, mounts, port, host, listenOn, logger,
      unreadyBeforeCloseMs, requestMetrics: metrics, metrics: { gather },
      worker: runWorkerFromEnv(), liveness: livenessFromEnv(),
      // Measured from `npm start`: the first requests took ~120 ms to answer beside the worker's start-up
      // (graphile-worker's loading, six connections and their first statements), ~45 ms without it.
      workerStartDelayMs: WORKER_START_DELAY_MS,
      // A process serving without its worker would leave jobs to the others: exit, to be replaced.
      onWorkerLost: (reason) => {
        if (stopping) return;
        logger.error(`${reason}; exiting so that the process is replaced`);
        process.exit(1);
      },
    });
  } catch (e) {
    const code = (e as { code?: string }).code;
    send({ type: 'failed', message: code === 'EADDRINUSE' ? `Port ${port} is already in use; set PORT to another one.` : String(e) });
    await db.destroy();
    process.exit(1);
  }
  // Asked once the primary's own copy of the socket is lent to its warm-up server: a copy for it to keep.
  process.on('message', (m: PrimaryMessage) => {
    if (m?.type === 'give-listen-socket') send({ type: 'listen-socket' }, (server.server as unknown as { _handle: SocketHandle })._handle);
  });
  send({ type: 'listening', url: server.url });
  rewriteCodeCacheAfterFirstApiRequest(server.server);

  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    logger.debug({ signal, pid: process.pid }, 'API process shutting down: finishing in-flight requests');
    // A request that never finishes must not keep the process forever.
    setTimeout(() => {
      logger.warn(`in-flight requests did not finish within ${DRAIN_LIMIT_MS / 1000} s; stopping anyway`);
      process.exit(1);
    }, unreadyBeforeCloseMs + DRAIN_LIMIT_MS).unref();
    await server.close();
    await db.destroy();
    process.exit(0);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown(signal));
  // The primary owns the database (the embedded one stops with it): without it, finish up and go.
  process.on('disconnect', () => void shutdown('primary gone'));
}

/** bin/code-cache.cjs: a process running from a code cache still marked partial (the first start after a build)
 * writes it again once it has answered its first API request, whose functions are compiled by then; run without a
 * cache runner, nothing. */
function rewriteCodeCacheAfterFirstApiRequest(http: Server): void {
  const rewrite = (globalThis as Record<symbol, (() => void) | undefined>)[Symbol.for('commerce-platform.code-cache.rewrite-after-first-request')];
  if (!rewrite) return;
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/api/')) return;
    http.off('request', onRequest);
    res.once('finish', () => setImmediate(rewrite));
  };
  http.on('request', onRequest);
}

/** The database and the socket to accept from, from the primary; run alone, DATABASE_URL and a socket of its own. */
function databaseFromPrimary(): Promise<{ url: string; listenOn?: SocketHandle }> {
  if (!process.send) return Promise.resolve({ url: process.env.DATABASE_URL! });
  return new Promise((resolve) => {
    const answered = (m: PrimaryMessage, handle: SocketHandle | undefined) => {
      if (m?.type !== 'database') return;
      process.off('message', answered);
      process.off('disconnect', orphaned);
      resolve({ url: m.url, listenOn: handle });
    };
    // The primary stopped before the database was ready (it failed to open or migrate it): nothing to serve.
    const orphaned = () => process.exit(1);
    process.on('message', answered);
    process.on('disconnect', orphaned);
    send({ type: 'awaiting-database' });
  });
}
