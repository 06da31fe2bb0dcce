// Applies knex migrations from migrations/ and graphile-worker's own schema.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { runMigrations, Logger } from 'graphile-worker';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'migrations');

const migrationSource: Knex.MigrationSource<string> = {
  async getMigrations() {
    return readdirSync(MIGRATIONS_DIR).filter((f) => /^\d+.*\.ts$/.test(f)).sort();
  },
  getMigrationName: (name) => name,
  async getMigration(name) {
    return import(pathToFileURL(join(MIGRATIONS_DIR, name)).href);
  },
};

export async function migrate(db: Knex, connectionString: string): Promise<void> {
  await runMigrations({ connectionString, logger: silentLogger() });
  await db.migrate.latest({ migrationSource });
}

function silentLogger(): Logger {
  // graphile-worker logs every migration step; keep start-up output to what a person needs.
  return new Logger(() => () => {});
}
