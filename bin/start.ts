// `npm start`: the API on http://127.0.0.1:3000/api/v1, on DATABASE_URL or an embedded PostgreSQL under .data/.
import { join } from 'node:path';
import { openServer, createKnex } from '../runtime/db.js';
import { ensureDatabase } from '../runtime/bootstrap.js';
import { migrate } from '../runtime/migrate.js';
import { startServer, createLogger } from '../runtime/server.js';
import { operations } from '../generated/routes.js';
import { taskList } from '../handlers/tasks.js';
import { seedDemo } from './demo-seed.js';
import { projectRoot } from './paths.js';

const logger = createLogger();
const database = await openServer(join(projectRoot, '.data', 'pg'), true);
// With DATABASE_URL the named database is used as it is; the embedded server gets a `commerce` database.
const url = process.env.DATABASE_URL ? database.url : await ensureDatabase(database.url, 'commerce');
const db = createKnex(url);
await migrate(db, url);
const demo = await seedDemo(db);
const port = Number(process.env.PORT ?? 3000);
const server = await startServer({ db, databaseUrl: url, operations, tasks: taskList(db), port, host: process.env.HOST ?? '127.0.0.1', logger });

const base = `${server.url}/api/v1`;
console.log(`\nCommerce Platform API listening on ${base}`);
if (demo) {
  console.log('\nA sandbox demo account was created. These secrets are shown once; keep them:');
  console.log(`  account:     ${demo.accountId} (${demo.accountTitle})`);
  console.log(`  API key:     ${demo.apiKey}`);
  console.log(`  user:        ${demo.userId} (${demo.username})`);
  console.log(`  user token:  ${demo.userToken}`);
  console.log(`\nTry: curl -H "Authorization: Bearer ${demo.apiKey}" ${base}/accounts/me`);
}
console.log('More credentials: npm run cli -- --help\n');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: finishing in-flight requests');
  await server.close();
  await db.destroy();
  await database.stop();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
