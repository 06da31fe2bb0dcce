// The migrations of this code, by the names the database records them under. Its own module: the start-up check
// (runtime/database-current.ts) lists them without loading knex or graphile-worker.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { codeDir } from './project-root.js';

export const MIGRATIONS_DIR = join(codeDir, 'migrations');

/** A migration is recorded by its source name (`200_ledgers.ts`) whether it ran from the sources under tsx or
 * compiled (dist/migrations/200_ledgers.js): a database migrated by either is current for the other. */
export function migrationNames(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir).filter((f) => /^\d+.*\.(ts|js)$/.test(f)).map((f) => f.replace(/\.js$/, '.ts')).sort();
}
