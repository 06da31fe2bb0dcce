// The primary's database work at `npm start` (bin/start.ts): open the embedded server (or take DATABASE_URL),
// migrate, seed the demo once. Its own module, imported after the API processes are forked, which load meanwhile.
// A database already current (runtime/database-current.ts) is checked with pg alone: knex, graphile-worker and the
// demo seed's handlers load only when something is to be applied.
import type { RunningDatabase } from '../runtime/embedded-db.js';
import { ensureDatabase, openServer } from '../runtime/bootstrap.js';
import { databaseState } from '../runtime/database-current.js';
import type { seedDemo } from './demo-seed.js';
import { EMBEDDED_DATA_DIR, EMBEDDED_DATABASE, publishUrl, withdrawUrl } from './local-database.js';

export { EMBEDDED_DATA_DIR };

export interface PreparedDatabase {
  url: string;
  database: RunningDatabase;
  /** the demo account's credentials when this start created it */
  demo: Awaited<ReturnType<typeof seedDemo>>;
  /** false when the server runs without autovacuum (a warning at start: docs/settings.md, "DATABASE_URL") */
  autovacuum: boolean | null;
}

/** `onOpened` receives the server as soon as it runs, so that a failure after it still stops it. */
export async function prepareDatabase(embedded: boolean, onOpened: (database: RunningDatabase) => void): Promise<PreparedDatabase> {
  let database: RunningDatabase;
  try {
    database = await openServer(EMBEDDED_DATA_DIR, { persistent: true, durable: true });
  } catch (e) {
    if (e instanceof Error && e.message.includes('already uses')) {
      throw new Error(`${e.message}.\nIs \`npm start\` already running? Stop it, or set DATABASE_URL to use another database.`);
    }
    throw e;
  }
  onOpened(database);
  // With DATABASE_URL the named database is used as it is; the embedded server gets a `commerce` database.
  const url = embedded ? await ensureDatabase(database.url, EMBEDDED_DATABASE) : database.url;
  const state = await databaseState(url);
  const demo = state.current ? null : await migrateAndSeed(url);
  if (embedded) {
    // `npm run cli` connects here while the server holds the embedded server's lock.
    publishUrl(url);
    process.on('exit', () => withdrawUrl());
  }
  return { url, database, demo, autovacuum: state.autovacuum };
}

/** The full path, on a database that is not current: knex, graphile-worker and the demo seed's handlers load only here. */
async function migrateAndSeed(url: string): Promise<Awaited<ReturnType<typeof seedDemo>>> {
  const [{ createKnex }, { migrate }, { seedDemo }] = await Promise.all([
    import('../runtime/db.js'), import('../runtime/migrate.js'), import('./demo-seed.js'),
  ]);
  const db = createKnex(url);
  try {
    await migrate(db, url);
    return await seedDemo(db);
  } finally {
    await db.destroy(); // the API processes have their own pools; the primary only supervises from here on
  }
}
