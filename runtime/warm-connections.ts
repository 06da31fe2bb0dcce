// Connections handed back are kept warm for the next borrower, and a borrower who finds none while the pool is full
// waits in a queue of ours, handed the next connection released, instead of going through knex's pool (tarn) each
// time. A lend from tarn costs about fourteen promises and a timer: a pending operation with its deferred and its
// timeout, the pool's validation, knex's async wrappers (node:async_hooks counted them: 89 promises per
// `GET /accounts/{id}` against the expert's 11, 14 of them the lend). A warm connection is lent by popping a stack.
//
// The pool still owns every connection and its limit still holds: a warm connection counts as lent in it. Tarn is
// asked when no connection is warm and it can lend or create one; a connection goes back to it when anyone waits in
// tarn's own queue, when it has sat warm for WARM_MS, when it is broken (knex marks a connection that errored or
// ended), and before the pool is destroyed. A borrower waits in our queue no longer than tarn's acquire timeout.
import type { Knex } from 'knex';
import { alignSession } from './clock.js';
import type { Eventually } from './eventually.js';

/** how long a connection may sit warm, unused, before it goes back to the pool (whose idle reaping then applies) */
const WARM_MS = 1000;

interface Lendable { __knex__disposed?: unknown }
interface Waiter<C> { since: number; resolve(conn: C): void; reject(e: Error): void }
interface TarnPool {
  max: number;
  acquireTimeoutMillis: number;
  numFree(): number;
  numUsed(): number;
  numPendingCreates(): number;
  numPendingAcquires(): number;
}
interface PoolClient<C> {
  acquireConnection(): Promise<C>;
  releaseConnection(conn: C): Promise<unknown>;
  destroy(callback?: unknown): Promise<unknown>;
  pool?: TarnPool | null;
}

const LENDER = Symbol('warm connections');

class Lender<C extends Lendable> {
  /** released connections, the most recent last, and when each was released */
  private readonly warm: C[] = [];
  private readonly since: number[] = [];
  private readonly waiters: Waiter<C>[] = [];
  private sweeping: NodeJS.Timeout | undefined;

  constructor(private readonly client: PoolClient<C>, private readonly acquire: () => Promise<C>,
    private readonly release: (conn: C) => Promise<unknown>) {}

  /** a warm connection that is not broken, if any */
  take(): C | undefined {
    while (this.warm.length) {
      const conn = this.warm.pop()!;
      this.since.pop();
      if (!conn.__knex__disposed) return conn;
      void this.release(conn); // the pool destroys a broken one
    }
    return undefined;
  }

  lend(): Promise<C> {
    const conn = this.take();
    if (conn) return Promise.resolve(conn);
    const pool = this.client.pool;
    // Tarn when it has a connection free or room to make one (or a queue of its own to honour).
    if (!pool || pool.numFree() > 0 || pool.numUsed() + pool.numPendingCreates() < pool.max || pool.numPendingAcquires() > 0) {
      return this.acquire();
    }
    return new Promise<C>((resolve, reject) => {
      this.waiters.push({ since: Date.now(), resolve, reject });
      this.sweepSoon();
    });
  }

  giveBack(conn: C): Promise<unknown> {
    const pool = this.client.pool;
    if (conn.__knex__disposed || !pool || pool.numPendingAcquires() > 0) {
      const released = this.release(conn);
      // A broken connection leaves the pool room for a new one: the first waiter gets it.
      const waiter = conn.__knex__disposed ? this.waiters.shift() : undefined;
      if (waiter) this.acquire().then(waiter.resolve, waiter.reject);
      return released;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(conn);
    else {
      this.warm.push(conn);
      this.since.push(Date.now());
      this.sweepSoon();
    }
    return Promise.resolve();
  }

  /** Gives every warm connection back and fails every waiter, as tarn does its own when destroyed. */
  drain(): void {
    clearInterval(this.sweeping);
    this.sweeping = undefined;
    for (const conn of this.warm.splice(0)) void this.release(conn);
    this.since.length = 0;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error('The connection pool was destroyed while this waited for a connection'));
  }

  private sweepSoon(): void {
    this.sweeping ??= setInterval(() => this.sweep(), WARM_MS / 4).unref();
  }

  private sweep(): void {
    const now = Date.now();
    // The oldest are first in both lists.
    let stale = 0;
    while (stale < this.warm.length && this.since[stale] <= now - WARM_MS) stale++;
    this.since.splice(0, stale);
    for (const conn of this.warm.splice(0, stale)) void this.release(conn);
    const timeout = this.client.pool?.acquireTimeoutMillis ?? 60_000;
    let late = 0;
    while (late < this.waiters.length && this.waiters[late].since <= now - timeout) late++;
    for (const waiter of this.waiters.splice(0, late)) {
      // tarn's refusal, in knex's words
      waiter.reject(Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full. '
        + 'Are you missing a .transacting(trx) call?'), { name: 'KnexTimeoutError' }));
    }
    if (!this.warm.length && !this.waiters.length) {
      clearInterval(this.sweeping);
      this.sweeping = undefined;
    }
  }
}

/** Keeps `db`'s released connections warm and queues its borrowers (above). */
export function keepConnectionsWarm(db: Knex): void {
  const client = db.client as PoolClient<Lendable> & { [LENDER]?: Lender<Lendable> };
  const lender = new Lender(client, client.acquireConnection.bind(client), client.releaseConnection.bind(client));
  const destroy = client.destroy.bind(client);
  client[LENDER] = lender;
  client.acquireConnection = () => lender.lend();
  client.releaseConnection = (conn) => lender.giveBack(conn);
  client.destroy = (callback?: unknown) => {
    lender.drain();
    return destroy(callback);
  };
}

/**
 * A connection of `db` for the code asking, set to its clock (runtime/clock.ts): without a promise when one is warm
 * and already at that clock, the common case. Released through `db.client.releaseConnection`.
 */
export function lendConnection<C>(db: Knex): Eventually<C> {
  const client = db.client as PoolClient<C> & { [LENDER]?: Lender<Lendable> };
  const conn = client[LENDER]?.take() as C | undefined;
  return conn ? alignedLend(client, conn) : client.acquireConnection();
}

/** `conn`, just lent by `client`, set to the asking code's clock. If that fails the connection is given back (a
 * broken one is then destroyed): kept, it would hold one of the pool's places for good. */
export function alignedLend<C>(client: { releaseConnection(conn: C): Promise<unknown> }, conn: C): Eventually<C> {
  const aligning = alignSession(conn as never);
  if (!aligning) return conn;
  return aligning.then(() => conn, (e: unknown) => {
    void client.releaseConnection(conn);
    throw e;
  });
}
