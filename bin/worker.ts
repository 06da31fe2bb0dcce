// `npm run worker`: a background worker alone (no HTTP), on the database `npm start` uses: DATABASE_URL, else the
// embedded server a running `npm start` published in .data/pg.url. Run as many as the work needs, beside API
// processes started with RUN_WORKER=false (or not). It does not migrate: `npm start` does, once, so the database
// must already be at this code's migrations. SIGTERM or SIGINT lets running jobs finish, then exits.
import { createKnex } from '../runtime/db.js';
import { pendingMigrations } from '../runtime/migration-source.js';
import { createLogger } from '../runtime/logger.js';
import { startWorker, type RunningWorker } from '../runtime/worker.js';
import { livenessFromEnv } from '../runtime/worker-liveness.js';
import { taskList, schedule } from '../wiring/tasks.js';
import { publishedUrl } from './local-database.js';
import { DRAIN_LIMIT_MS } from './process-settings.js';
import { PRIVATE_DESTINATIONS_SETTING, webhookDestinationPolicy } from '../handlers/webhooks/destination-policy.js';

/** What a parent that forked this process (the multi-process tests) hears once the worker runs. */
export type WorkerProcessMessage = { type: 'worker-ready'; workerId: string };

const logger = createLogger();
function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const url = process.env.DATABASE_URL || await publishedUrl();
if (!url) fail('No database: set DATABASE_URL, or start `npm start` first (its embedded database is shared through .data/pg.url).');
// A worker listens nowhere, so HOST's default (loopback) says nothing of where it runs: unless HOST or the setting
// is given, it delivers webhooks to public addresses only (docs/settings.md).
if (!process.env.HOST && !process.env[PRIVATE_DESTINATIONS_SETTING]) process.env[PRIVATE_DESTINATIONS_SETTING] = 'false';
let liveness;
try {
  liveness = livenessFromEnv();
  webhookDestinationPolicy();
} catch (e) {
  fail((e as Error).message);
}
const db = createKnex(url, 5);
const pending = await pendingMigrations(db).catch((e: Error) => fail(`Cannot read the database's migrations: ${e.message}`));
if (pending.length) {
  await db.destroy();
  fail(`The database lacks ${pending.length} migration(s) of this code (${pending[0]}...): run \`npm start\` (which migrates) first.`);
}

let worker: RunningWorker;
try {
  worker = await startWorker({ databaseUrl: url, tasks: taskList(db), schedule, logger, liveness });
} catch (e) {
  await db.destroy();
  fail(`The worker could not start: ${(e as Error).message}`);
}
console.log(`Background worker ${worker.id} running (pid ${process.pid}) on ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'the database of `npm start`'}`);
process.send?.({ type: 'worker-ready', workerId: worker.id } satisfies WorkerProcessMessage);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'worker shutting down: letting running jobs finish');
  // A job that never finishes must not keep the process: its lock is released once the heartbeat expires.
  setTimeout(() => process.exit(1), DRAIN_LIMIT_MS).unref();
  await worker.stop();
  await db.destroy();
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown(signal));
void worker.done.then(() => {
  if (!stopping) fail('The worker stopped on its own (see the log above); exiting so that it can be restarted.');
});
