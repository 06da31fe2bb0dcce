// Runs the app and (unless worker: false) a background worker on one database; SIGTERM finishes in-flight requests, then stops.
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createLogger } from './logger.js';
import type { TaskList } from 'graphile-worker';
import { createApp, type ExtraRoute, type Mount } from './app.js';
import type { MetricsOptions, RequestMetrics } from './metrics.js';
import { rateLimitOptionsFromEnv, rateLimits, type RateLimitOptions } from './rate-limit.js';
import type { OperationDefinition } from './operation.js';
import { randomToken } from './ids.js';
import type { RunningWorker } from './worker.js';
import type { LivenessSettings } from './worker-liveness.js';
import { startCacheListener } from './shared-cache.js';
import { apiLogWriter, type ApiLogWriter } from './api-log.js';

export interface ServerOptions {
  db: Knex;
  databaseUrl: string;
  operations: OperationDefinition[];
  tasks: TaskList;
  /** routes outside the API's base path (runtime/app.ts ExtraRoute) */
  extraRoutes?: ExtraRoute[];
  /** other APIs served beside the Current one (runtime/app.ts Mount): the v2 legacy API */
  mounts?: Mount[];
  /** tasks to run on a schedule (crontab lines: `minute hour day month weekday task`) and once when the worker starts */
  schedule?: { crontab: string[]; onStart: string[] };
  port: number;
  host?: string;
  /** a socket already bound, and maybe listening, in another process (`npm start`'s primary hands one to each API
   * process: bin/listen-socket.ts): the server accepts from it, and port and host only name its URL */
  listenOn?: object;
  /** run a graphile-worker pool in this process (default true) */
  worker?: boolean;
  /** start the worker this long after listening instead of before startServer returns (default 0), so that the first
   * requests are not served beside its start-up; jobs wait in the database meanwhile */
  workerStartDelayMs?: number;
  /** the worker failed to start after a delay, or stopped on its own while the server runs (default: logged) */
  onWorkerLost?: (reason: string) => void;
  /** the worker's heartbeat settings (runtime/worker-liveness.ts; default 10 s beats, dead after 30 s) */
  liveness?: Partial<LivenessSettings>;
  /**
   * How long close() keeps accepting requests, answering GET /ready with 503, before it stops accepting (default 0):
   * long enough for a load balancer that polls /ready to stop sending new requests here first.
   */
  unreadyBeforeCloseMs?: number;
  /** GET /metrics: its token (default METRICS_TOKEN; unset: no token needed) and how processes' counts are gathered */
  metrics?: MetricsOptions;
  /** this process's request counters, when the caller shares them (bin/api-process.ts, for the cluster) */
  requestMetrics?: RequestMetrics;
  /** request budgets per credential: default RATE_LIMIT_MULTIPLIER and REDIS_URL (runtime/rate-limit.ts) */
  rateLimits?: RateLimitOptions;
  logger?: Logger;
  /** false: no api logs (the benchmark's measure of what they cost); default on */
  apiLogs?: false;
}

export interface RunningServer {
  url: string;
  server: Server;
  /** this process's api log buffer: tests await apiLogs.flush(); null when the server keeps none */
  apiLogs: ApiLogWriter | null;
  close(): Promise<void>;
}

/**
 * Requests Node refuses before the app sees them (headers or URL over its size limit, unparsable HTTP) get the
 * error envelope too, instead of Node's bare status line.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const requestId = `req_${randomToken(16)}`;
  const message = tooLarge
    ? 'The request line and headers are too large; send long parameters in a JSON body instead'
    : 'The request is not well-formed HTTP';
  const body = JSON.stringify({ error: { type: 'invalid_request', message, request_id: requestId } });
  socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}`
    + `\r\nRequest-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`);
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const logger = options.logger ?? createLogger();
  // What requests cache in memory is dropped, in every process, when the database says it changed.
  const caches = options.databaseUrl ? startCacheListener(options.db, options.databaseUrl, logger) : null;
  let stopping = false;
  const budgets = rateLimits(options.rateLimits ?? rateLimitOptionsFromEnv(), logger);
  const apiLogs = options.apiLogs === false ? null : apiLogWriter(options.db, logger);
  const app = createApp({
    apiLogs: apiLogs ?? undefined,
    db: options.db, operations: options.operations, logger, extraRoutes: options.extraRoutes, mounts: options.mounts,
    stopping: () => stopping,
    metrics: { token: process.env.METRICS_TOKEN || null, ...options.metrics },
    requestMetrics: options.requestMetrics,
    rateLimits: budgets,
  });
  // The pool's first connection (its start-up, authentication and LISTEN: three round trips) is opened while the
  // socket opens, not by the first request. Not awaited: a database not there yet is the first request's to report
  // (and GET /ready's), as before, and listening does not wait for it.
  void options.db.raw('select 1').catch(() => {});
  const server = createServer(app.listener);
  if (options.listenOn) server.listen(options.listenOn);
  else server.listen(options.port, options.host ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 5000;
  server.on('clientError', answerClientError);
  // Once closing, responses say Connection: close and their sockets end with them: the app sets it on every response
  // it finishes while stopping (runtime/app.ts), the one mechanism; close() sweeps the sockets as they go idle.
  // Nothing here holds a response: a set of in-flight responses, each removed on its 'close', kept every request's
  // objects alive through two scavenges (node --trace-gc-nvp).
  const lost = options.onWorkerLost ?? ((reason: string) => logger.error(reason));
  let worker: Promise<RunningWorker | null> = Promise.resolve(null);
  let workerTimer: NodeJS.Timeout | null = null;
  if (options.worker !== false) {
    const starting = () => startWorkerBeside(options, logger, () => stopping, lost);
    const delay = options.workerStartDelayMs ?? 0;
    // Started at once, a failure throws from startServer; started later, it is reported through onWorkerLost.
    if (delay === 0) worker = Promise.resolve(await starting());
    else {
      workerTimer = setTimeout(() => {
        workerTimer = null;
        worker = starting().catch((e) => {
          lost(`the background worker could not start: ${String(e)}`);
          return null;
        });
      }, delay);
    }
  }
  const { port } = server.address() as { port: number };
  let closing: Promise<void> | null = null;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    server,
    apiLogs,
    close: () => {
      // Stop accepting connections and wait for in-flight requests; idle keep-alive sockets are closed.
      closing ??= (async () => {
        stopping = true;
        if (workerTimer) clearTimeout(workerTimer);
        if (options.unreadyBeforeCloseMs) await new Promise((resolve) => setTimeout(resolve, options.unreadyBeforeCloseMs));
        await new Promise<void>((resolve) => {
          // A response already being written when closing began keeps its socket alive: closed once it goes idle.
          const sweep = setInterval(() => server.closeIdleConnections(), 50);
          server.close(() => {
            clearInterval(sweep);
            resolve();
          });
          server.closeIdleConnections();
        });
        await apiLogs?.close(); // after the last request, before the pool can go
        await (await worker)?.stop();
        await caches?.stop();
        await budgets.close();
      })();
      return closing;
    },
  };
}

/** Loaded once listening: graphile-worker and its dependencies are not on the way to the first request. A worker that
 * stops while the server is not closing is reported (`lost`): the server runs on without one. */
async function startWorkerBeside(options: ServerOptions, logger: Logger, closing: () => boolean,
  lost: (reason: string) => void): Promise<RunningWorker> {
  const { startWorker } = await import('./worker.js');
  const worker = await startWorker({
    databaseUrl: options.databaseUrl, tasks: options.tasks, schedule: options.schedule, logger, liveness: options.liveness,
  });
  void worker.done.then(() => {
    if (!closing()) lost('the background worker stopped');
  });
  return worker;
}
