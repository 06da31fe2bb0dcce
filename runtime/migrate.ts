// Applies graphile-worker's own schema, the runtime's tables (runtime/migrations/) and an API's knex migrations.
import type { Knex } from 'knex';
import pg from 'pg';
import { runMigrations, Logger } from 'graphile-worker';
import { MIGRATIONS_DIR } from './migration-files.js';
import { migrationsIn } from './migration-source.js';

export async function migrate(db: Knex, connectionString: string, dir = MIGRATIONS_DIR): Promise<void> {
  await oneAtATime(connectionString, async () => {
    await runMigrations({ connectionString, logger: silentLogger() });
    await planAddJobsPerCall(db);
    await db.migrate.latest({ migrationSource: migrationsIn(dir) });
  });
}

/**
 * Several hosts starting at once on one database (a deployment's first start, every host restarted for an upgrade)
 * would migrate it at once, and all but one would fail: knex creating its table twice ("duplicate key value violates
 * unique constraint pg_type_typname_nsp_index"), or its lock refusing ("Migration table is already locked"). So one
 * migrates while the others wait on a session advisory lock (per database), then find nothing left to do.
 */
async function oneAtATime(connectionString: string, work: () => Promise<void>): Promise<void> {
  const session = new pg.Client({ connectionString });
  await session.connect();
  try {
    await session.query('select pg_advisory_lock(hashtext($1))', ['runtime/migrate.ts migrate']);
    await work();
  } finally {
    await session.end(); // ending the session releases its lock
  }
}

/**
 * graphile_worker.add_jobs (behind every add_job) is PL/pgSQL, so each connection caches a generic plan for its
 * statements. A connection that first added a job while the job table was nearly empty keeps a plan that finds
 * existing keys by scanning the table, and every later add_job on it costs a full scan: measured here, 29 ms per
 * add_job at 200,000 queued jobs on such a connection against 1.2 ms on a fresh one (a backlog builds whenever the
 * worker is behind; the benchmark never runs it). Planning per call keeps the key index in use. Applied at every
 * start: graphile-worker's own migrations may redefine the function without the setting.
 */
async function planAddJobsPerCall(db: Knex): Promise<void> {
  // Processes starting together (a CLI beside a server) would otherwise alter the function at once, and PostgreSQL
  // refuses the second ("tuple concurrently updated"): one at a time, and only when the setting is missing.
  await db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', ['graphile_worker.add_jobs plan_cache_mode']);
    const { rows } = await trx.raw(`select coalesce('plan_cache_mode=force_custom_plan' = any(proconfig), false) as set from pg_proc
      where oid = 'graphile_worker.add_jobs(graphile_worker.job_spec[], boolean)'::regprocedure`);
    if (!rows[0]?.set) await trx.raw('alter function graphile_worker.add_jobs(graphile_worker.job_spec[], boolean) set plan_cache_mode = force_custom_plan');
  });
}

function silentLogger(): Logger {
  // graphile-worker logs every migration step; keep start-up output to what a person needs.
  return new Logger(() => () => {});
}
