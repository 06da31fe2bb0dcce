// The process settings of `npm start` and `npm run worker`, read from the environment (docs/settings.md).

/** How long a stopping process waits for in-flight requests (and running jobs) before it exits anyway. */
export const DRAIN_LIMIT_MS = 10_000;

/** WEB_CONCURRENCY: how many API processes `npm start` runs (default 1). */
export function webConcurrencyFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.WEB_CONCURRENCY;
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`WEB_CONCURRENCY must be a whole number of processes (1 or more), not "${raw}"`);
  return n;
}

/** RUN_WORKER: whether API processes also run a background worker (default true; false when `npm run worker`
 * processes do the background work). */
export function runWorkerFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = (env.RUN_WORKER ?? '').toLowerCase();
  if (raw === '' || raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`RUN_WORKER must be true or false, not "${env.RUN_WORKER}"`);
}

/** SHUTDOWN_UNREADY_SECONDS: how long a stopping API process keeps serving with GET /ready answering 503 before it
 * stops accepting (default 0; behind a load balancer that polls /ready, a little over its polling interval). */
export function unreadyBeforeCloseMsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SHUTDOWN_UNREADY_SECONDS;
  if (raw === undefined || raw === '') return 0;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0) throw new Error(`SHUTDOWN_UNREADY_SECONDS must be a number of seconds (0 or more), not "${raw}"`);
  return Math.round(seconds * 1000);
}

/** PORT: the port the API listens on (default 3000; 0: any free port). */
export function portFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PORT;
  if (raw === undefined || raw === '') return 3000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number (0 to 65535), not "${raw}"`);
  return port;
}
