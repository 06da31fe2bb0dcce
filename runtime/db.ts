// One code path to a database: DATABASE_URL when set, else an embedded PostgreSQL.
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { listenOnConnection } from './shared-cache.js';
import { alignedLend, keepConnectionsWarm } from './warm-connections.js';
import './pg-row-shapes.js';

// Timestamps travel as ISO 8601 strings end to end; int8 values (money in minor units) fit in a double.
pg.types.setTypeParser(1184, isoTimestamp);
pg.types.setTypeParser(20, (v) => Number(v));

/** PostgreSQL's text form of a UTC timestamptz, the sessions' zone: rewritten without a Date (a Date costs six times
 * as much, and a view reads about ten timestamps). Any other form (another zone, infinity, BC) goes through a Date. */
const UTC_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;
export function isoTimestamp(text: string): string {
  const m = UTC_TIMESTAMP.exec(text);
  if (!m) return new Date(text).toISOString();
  // Milliseconds, truncated like a Date's
  return `${m[1]}T${m[2]}.${m[3] ? `${m[3]}00`.slice(0, 3) : '000'}Z`;
}

/** Session settings sent in the connection's startup message (no round trip). JIT off: a statement whose plan the
 * planner costs high (a year's stats series per day, ~7 ms to run) spent 40-50 ms compiling on PostgreSQL 15 with
 * jit on (EXPLAIN ANALYZE: "JIT ... Emission 38 ms"); the API's statements are short, none gains from it. */
export const SESSION_OPTIONS = '-c jit=off';

export function createKnex(url: string, poolMax = 10): Knex {
  const db: Knex = knexFactory({
    client: 'pg',
    connection: { connectionString: url, options: SESSION_OPTIONS },
    pool: {
      min: 0,
      max: poolMax,
      afterCreate: (connection: pg.Client, done: (err: Error | null, connection: pg.Client) => void) => {
        listenOnConnection(() => db, connection).then(() => done(null, connection), (err: Error) => done(err, connection));
      },
    },
  });
  keepConnectionsWarm(db);
  runOnClocks(db);
  return db;
}

/** Every connection the pool lends is set to the clock of the code asking for it (runtime/clock.ts). */
function runOnClocks(db: Knex): void {
  const client = db.client as { acquireConnection(): Promise<pg.Client>; releaseConnection(conn: pg.Client): Promise<unknown> };
  const acquire = client.acquireConnection.bind(client);
  client.acquireConnection = async () => alignedLend(client, await acquire());
}

export { openServer, withDatabase } from './bootstrap.js';
