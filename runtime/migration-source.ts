// The migrations knex applies and lists: the runtime's own set and an API's migrations/, by the names the database
// records. Its own module, without graphile-worker: an API process lists what is pending for its GET /ready
// (runtime/readiness.ts), and with this list came graphile-worker and what it loads (graphile-config, cosmiconfig,
// a YAML parser, child_process, ...), before the process's first answer instead of when its worker starts.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { codeFile } from './project-root.js';
import { MIGRATIONS_DIR, migrationNames } from './migration-files.js';
import { runtimeMigrations } from './migrations/index.js';

/** This project's migrations/ predate the runtime's own set and make those tables in their own numbered steps (with
 * the columns only that API has), so the set does not run before them: its tables would be there first and the
 * API's step creating them would fail. Every other API's migrations (examples/library) come after the set. */
const makesRuntimeTables = (dir: string): boolean => resolve(dir) === resolve(MIGRATIONS_DIR);

/** The migrations in `dir`: this project's migrations/ unless another API (examples/library) names its own. */
export const migrationsIn = (dir: string): Knex.MigrationSource<string> => {
  const runtime = makesRuntimeTables(dir) ? [] : [...runtimeMigrations.keys()];
  return {
    async getMigrations() {
      return [...runtime, ...migrationNames(dir)];
    },
    getMigrationName: (name) => name,
    async getMigration(name) {
      return runtimeMigrations.get(name) ?? import(pathToFileURL(join(dir, codeFile(name.replace(/\.ts$/, '')))).href);
    },
  };
};

const migrationSource = migrationsIn(MIGRATIONS_DIR);

/** Migrations of this code not yet applied to the database (a process that does not migrate checks this). */
export async function pendingMigrations(db: Knex): Promise<string[]> {
  const [, pending] = await db.migrate.list({ migrationSource }) as [unknown[], { file: string }[] | string[]];
  return pending.map((m) => (typeof m === 'string' ? m : m.file));
}
