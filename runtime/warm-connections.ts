// Connections handed back are kept warm for the next borrower instead of going back through knex's pool at once.
// A lend from knex's pool (tarn) costs about fourteen promises and a timer: a pending operation with its deferred and
// its timeout, the pool's validation, knex's own async wrappers (node:async_hooks counted them: 89 promises per
// `GET /accounts/{id}` against the expert's 11, 14 of them the lend). A warm connection is lent by popping a stack.
//
// The pool still owns every connection and its limit still holds: a warm connection counts as lent in it. So a
// connection goes back to the pool when anyone waits in the pool's queue, when it has sat warm for WARM_MS, when it
// is broken (knex marks a connection that errored or ended), and before the pool is destroyed.
import type { Knex } from 'knex';
import { alignSession } from './clock.js';

/** how long a connection may sit warm, unused, before it goes back to the pool (whose idle reaping then applies) */
const WARM_MS = 1000;

interface Lendable { __knex__disposed?: unknown }
interface Warm<C> { conn: C; since: number }
interface Kept { warm: Warm<Lendable>[]; release(conn: Lendable): Promise<unknown> }
interface PoolClient<C> {
  acquireConnection(): Promise<C>;
  releaseConnection(conn: C): Promise<unknown>;
  destroy(callback?: unknown): Promise<unknown>;
  pool?: { numPendingAcquires(): number } | null;
}

const WARM = Symbol('warm connections');

/** Keeps `db`'s released connections warm (above). Lends through `lendWarm` are synchronous when one is warm. */
export function keepConnectionsWarm(db: Knex): void {
  const client = db.client as PoolClient<Lendable> & { [WARM]?: Kept };
  const warm: Warm<Lendable>[] = [];
  const acquire = client.acquireConnection.bind(client);
  const release = client.releaseConnection.bind(client);
  client[WARM] = { warm, release };
  const destroy = client.destroy.bind(client);
  let sweeping: NodeJS.Timeout | undefined;

  const sweep = () => {
    const stale = Date.now() - WARM_MS;
    // The stack's bottom was released first: the stale ones are a prefix.
    let n = 0;
    while (n < warm.length && warm[n].since <= stale) n++;
    for (const { conn } of warm.splice(0, n)) void release(conn);
    if (!warm.length) {
      clearInterval(sweeping);
      sweeping = undefined;
    }
  };

  client.acquireConnection = () => {
    const conn = takeWarm(warm, release);
    return conn ? Promise.resolve(conn) : acquire();
  };
  client.releaseConnection = (conn) => {
    if (conn.__knex__disposed || !client.pool || client.pool.numPendingAcquires() > 0) return release(conn);
    warm.push({ conn, since: Date.now() });
    sweeping ??= setInterval(sweep, WARM_MS).unref();
    return Promise.resolve();
  };
  client.destroy = (callback?: unknown) => {
    clearInterval(sweeping);
    sweeping = undefined;
    for (const { conn } of warm.splice(0)) void release(conn);
    return destroy(callback);
  };
}

function takeWarm<C extends Lendable>(warm: Warm<C>[], release: (conn: C) => Promise<unknown>): C | undefined {
  for (let entry = warm.pop(); entry; entry = warm.pop()) {
    if (!entry.conn.__knex__disposed) return entry.conn;
    void release(entry.conn); // the pool destroys a broken one
  }
  return undefined;
}

/**
 * A connection of `db` for the code asking, set to its clock (runtime/clock.ts): without a promise when one is warm
 * and already at that clock, the common case. Released through `db.client.releaseConnection`.
 */
export function lendConnection<C>(db: Knex): C | Promise<C> {
  const kept = (db.client as { [WARM]?: Kept })[WARM];
  const conn = kept?.warm.length ? takeWarm(kept.warm, kept.release) : undefined;
  if (!conn) return (db.client as PoolClient<C>).acquireConnection();
  const aligning = alignSession(conn as never);
  return aligning ? aligning.then(() => conn as C) : (conn as C);
}
