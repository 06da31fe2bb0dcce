// The framework side of the benchmark: the real server (generated operations, handlers, runtime) as `npm start`
// runs it, without the background worker and with logging off. bench/run.ts talks to it over IPC.
import pino from 'pino';
import pg from 'pg';
import { createKnex } from '../runtime/db.js';
import { startServer } from '../runtime/server.js';
import { operations } from '../generated/routes.js';
import { taskList } from '../wiring/tasks.js';
import { API_LOG_STATEMENTS } from '../runtime/api-log.js';
import { cachesFor } from '../runtime/shared-cache.js';

const url = process.env.DATABASE_URL!;
const db = createKnex(url); // the pool size `npm start` uses
let queries = 0;
const API_LOG_BATCHES = [...API_LOG_STATEMENTS];
const recent: string[] = []; // the latest statements, for bench/run.ts to show when the two sides differ
// Counted where every statement passes, knex-built or plain (runtime/request-db.ts query): pg's Client.query.
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  const text = typeof config === 'string' ? config : (config as { text: string }).text;
  // Not a request's: the api logs' batch insert (runtime/api-log.ts), one per 500 requests or 250 ms, which would
  // otherwise count against whichever request the check happened to send beside it.
  // Compared, not looked up: a Set hashes the whole text of each statement made per request (a COMMIT's is ~3 KB on
  // POST /payments), ~5 µs a request the expert's counter does not spend (perf record of a quick run).
  if (API_LOG_BATCHES.some((batch) => batch === text)) return clientQuery.apply(this, [config, ...rest] as never);
  queries++;
  recent.push(text);
  if (recent.length > 50) recent.shift();
  return (clientQuery as (...a: unknown[]) => unknown).call(this, config, ...rest);
} as typeof clientQuery;
/** BENCH_MOUNTED_OPERATIONS (the routing scenario): mount this many operations. Fewer than there are: the first ones,
 * GET /accounts/{id} among them; more: synthetic ones beside the real ones, copies of GET /accounts/{id} under paths of
 * the shapes real ones have (static prefixes, nested parameters). */
const mounted = Number(process.env.BENCH_MOUNTED_OPERATIONS ?? operations.length);
const template = operations.find((op) => op.id === 'retrieveAccount')!;
const real = mounted >= operations.length ? operations
  : [template, ...operations.filter((op) => op !== template).slice(0, Math.max(0, mounted - 1))];
const synthetic = Array.from({ length: Math.max(0, mounted - operations.length) }, (_, i) => ({
  ...template,
  id: `benchSynthetic${i}`,
  path: [`/synthetic_${i}`, `/synthetic_${i}/{id}`, `/accounts/{id}/synthetic_${i}`, `/synthetic_group_${i % 7}/{id}/item_${i}`][i % 4],
}));
// No top-level await: run as `npm start` runs its API process, a CommonJS bundle from V8's code cache
// (bench/compiled.ts, bin/code-cache.cjs).
void main();

async function main(): Promise<void> {
  const server = await startServer({
    db, databaseUrl: url, operations: [...real, ...synthetic], tasks: taskList(db), port: 0, worker: false, logger: pino({ level: 'silent' }),
    // BENCH_API_LOGS=off: the same server keeping no api logs (the api logs scenario's other side)
    ...(process.env.BENCH_API_LOGS === 'off' ? { apiLogs: false as const } : {}),
  });
  // Measured once its caches keep what requests load: until the invalidation listener is connected they keep nothing,
  // and the check's first requests (bench/run.ts verify) would count the loads of a server still starting.
  for (let waited = 0; !cachesFor(db).live && waited < 5000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
  process.send!({ url: server.url });
  process.on('message', (message: { type: string }) => {
    if (message.type === 'queries') process.send!({ queries, recent });
    if (message.type === 'cpu') process.send!(process.cpuUsage());
    if (message.type === 'stop') {
      // Requests still waiting for a pooled connection are dropped with the process; nothing is left to finish.
      server.server.closeAllConnections();
      process.exit(0);
    }
  });
}
