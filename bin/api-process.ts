// One API process under `npm start` (bin/start.ts forks WEB_CONCURRENCY of them): serves the API on the shared port
// and, unless RUN_WORKER=false, runs a background worker too. It loads its code while the primary migrates the
// database, then asks the primary for it (bin/supervisor.ts); run alone, it serves DATABASE_URL.
// SIGTERM or SIGINT finishes in-flight requests (at most DRAIN_LIMIT_MS), stops the worker and exits.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createKnex } from '../runtime/db.js';
import { startServer, type RunningServer } from '../runtime/server.js';
import { createLogger } from '../runtime/logger.js';
import { livenessFromEnv } from '../runtime/worker-liveness.js';
import { operations } from '../generated/routes.js';
import { taskList, schedule } from '../wiring/tasks.js';
import { extraRoutes, mounts } from '../wiring/routes.js';
import type { ApiProcessMessage, DatabaseMessage } from './supervisor.js';
import { requestMetrics } from '../runtime/metrics.js';
import { gatherAcrossCluster } from './cluster-metrics.js';
import { DRAIN_LIMIT_MS, runWorkerFromEnv, unreadyBeforeCloseMsFromEnv } from './process-settings.js';

const WORKER_START_DELAY_MS = 300;
const send = (message: ApiProcessMessage) => process.send?.(message);
const logger = createLogger();

// No top-level await: `npm start` runs this file as a CommonJS bundle, compiled from V8's code cache (bin/build.mjs).
void main();

async function main(): Promise<void> {
  const url = await databaseFromPrimary();
  const db = createKnex(url);
  const port = Number(process.env.PORT ?? 3000);
  const unreadyBeforeCloseMs = unreadyBeforeCloseMsFromEnv();
  // A scrape answered here reports every API process's requests (bin/cluster-metrics.ts).
  const metrics = requestMetrics();
  const gather = gatherAcrossCluster(metrics.registry);
  let stopping = false;
  let server: RunningServer;
  try {
    server = await startServer({
      db, databaseUrl: url, operations, tasks: taskList(db), schedule, extraRoutes, mounts, port,
      host: process.env.HOST ?? '127.0.0.1', logger, unreadyBeforeCloseMs, requestMetrics: metrics, metrics: { gather },
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

/** bin/code-cache.cjs: the process that wrote the code cache (the first after a build) writes it again once it has
 * answered its first API request, whose functions are compiled by then; run without a cache runner, nothing. */
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

function databaseFromPrimary(): Promise<string> {
  if (!process.send) return Promise.resolve(process.env.DATABASE_URL!);
  return new Promise((resolve) => {
    const answered = (m: DatabaseMessage) => {
      if (m?.type !== 'database') return;
      process.off('message', answered);
      process.off('disconnect', orphaned);
      resolve(m.url);
    };
    // The primary stopped before the database was ready (it failed to open or migrate it): nothing to serve.
    const orphaned = () => process.exit(1);
    process.on('message', answered);
    process.on('disconnect', orphaned);
    send({ type: 'awaiting-database' });
  });
}
