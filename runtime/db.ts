// One code path to a database: DATABASE_URL when set, else an embedded PostgreSQL.
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedOptions, type RunningDatabase } from './embedded-db.js';
import { listenOnConnection } from './shared-cache.js';

// Timestamps travel as ISO 8601 strings end to end; int8 values (money in minor units) fit in a double.
pg.types.setTypeParser(1184, (v) => new Date(v).toISOString());
pg.types.setTypeParser(20, (v) => Number(v));

export function createKnex(url: string, poolMax = 10): Knex {
  const db: Knex = knexFactory({
    client: 'pg',
    connection: url,
    pool: {
      min: 0,
      max: poolMax,
      afterCreate: (connection: pg.Client, done: (err: Error | null, connection: pg.Client) => void) => {
        listenOnConnection(() => db, connection).then(() => done(null, connection), (err: Error) => done(err, connection));
      },
    },
  });
  return db;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** DATABASE_URL if set; otherwise an embedded server under `dataDir`. */
export async function openServer(dataDir: string, options: EmbeddedOptions): Promise<RunningDatabase> {
  const url = process.env.DATABASE_URL;
  if (url) return { url, stop: async () => {} };
  return startEmbeddedPostgres(dataDir, options);
}
