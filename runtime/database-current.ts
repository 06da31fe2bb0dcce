// Whether a database already holds everything `npm start` applies before serving (runtime/migrate.ts: this code's
// migrations, graphile-worker's schema and its add_jobs setting; bin/demo-seed.ts: an account), asked in one
// statement with pg alone. A start on a current database (most starts) then loads neither knex, graphile-worker
// nor the handlers the demo seed uses: measured, ~190 ms of the primary's CPU while the API processes load beside
// it (two cores). Any doubt answers false and the full path runs, which applies what is missing or says what is wrong.
import pg from 'pg';
import type { Knex } from 'knex';
import { migrations as workerMigrationFiles } from 'graphile-worker/dist/generated/sql.js';
import { migrationNames } from './migration-files.js';

/** graphile-worker's newest schema revision: its migration files are `000001.sql`... (what its migrate() reads) */
const WORKER_REVISION = Math.max(...Object.keys(workerMigrationFiles).map((f) => parseInt(f.slice(0, 6), 10)));

const CURRENT = `select
  (select count(*) from knex_migrations where name = any($1::text[]))::int as applied,
  (select count(*) from knex_migrations)::int as recorded,
  (select max(id) from graphile_worker.migrations)::int as worker_revision,
  (select coalesce('plan_cache_mode=force_custom_plan' = any(proconfig), false) from pg_proc
    where oid = to_regprocedure('graphile_worker.add_jobs(graphile_worker.job_spec[], boolean)')) as add_jobs_planned,
  exists (select 1 from accounts) as seeded,
  current_setting('autovacuum') = 'on' as autovacuum`;

export interface DatabaseState {
  /** everything `npm start` applies is there */
  current: boolean;
  /** the server runs autovacuum (null: not known, the statement failed). Without it nothing analyzes a growing
   * table, and a pooled connection's plan made while the table was empty stays (docs/settings.md, "DATABASE_URL"). */
  autovacuum: boolean | null;
}

type Query = (sql: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export async function databaseState(url: string): Promise<DatabaseState> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return await stateThrough((sql, params) => client.query(sql, params));
  } catch {
    return { current: false, autovacuum: null }; // unreachable: the full path says why
  } finally {
    await client.end().catch(() => {});
  }
}

/** databaseState asked on one of a knex pool's connections, which then serves the pool's first borrower warm (the
 * warm-up server's, bin/warm-up.ts). */
export async function poolDatabaseState(db: Knex): Promise<DatabaseState> {
  const pool = db.client as { acquireConnection(): Promise<pg.Client>; releaseConnection(c: pg.Client): Promise<unknown> };
  const connection = await pool.acquireConnection();
  try {
    return await stateThrough((sql, params) => connection.query(sql, params));
  } finally {
    await pool.releaseConnection(connection);
  }
}

async function stateThrough(query: Query): Promise<DatabaseState> {
  const names = migrationNames();
  try {
    const { rows: [row] } = await query(CURRENT, [names]);
    const current = row.applied === names.length && row.recorded === names.length && row.worker_revision === WORKER_REVISION
      && row.add_jobs_planned === true && row.seeded === true;
    return { current, autovacuum: row.autovacuum as boolean };
  } catch {
    // a table missing (a new database): the full path says which. A new database is where the setting matters most,
    // so it is still asked for (only on this path: a current one answered above).
    const autovacuum = await query("select current_setting('autovacuum') = 'on' as on")
      .then(({ rows: [row] }) => row.on as boolean, () => null);
    return { current: false, autovacuum };
  }
}
