// Connections a request hands back stay warm for the next one (runtime/warm-connections.ts), without taking them from
// the pool's other users: with a pool of one connection, whoever waits in the pool gets it, a broken one is never
// lent again, an idle one goes back to the pool, and destroying the pool does not wait for the warm ones.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Knex } from 'knex';
import pg from 'pg';
import { createKnex } from '../../runtime/db.js';
import { ensureDatabase, dropDatabase } from '../../runtime/bootstrap.js';
import { withConnection, query } from '../../runtime/request-db.js';
import { randomToken } from '../../runtime/ids.js';

const t = suite('runtime: warm connections');
let url: string;
let db: Knex;
const adminUrl = () => process.env.TEST_ADMIN_URL!;
t.before(async () => {
  url = await ensureDatabase(adminUrl(), `t_${randomToken(10).toLowerCase()}`, process.env.TEST_TEMPLATE);
});
t.after(async () => {
  await dropDatabase(adminUrl(), new URL(url).pathname.slice(1));
});
t.before.each(() => {
  db = createKnex(url, 1);
});
t.after.each(async () => {
  await db.destroy();
});

type Pool = { numUsed(): number; numFree(): number; numPendingAcquires(): number };
const pool = () => (db.client as { pool: Pool }).pool;
const backendPid = async (conn: Knex) => (await conn.raw('select pg_backend_pid() as pid')).rows[0].pid as number;
/** `work`, or a failure after `ms`: a lend that waits for the pool's timeout (60 s) would otherwise hang the suite */
const within = <T>(ms: number, work: Promise<T>) => Promise.race([work,
  new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not done within ${ms} ms`)), ms).unref())]);

t('a released connection is lent again, as it is, to a request and to the query builder', async () => {
  const first = await withConnection(db, backendPid);
  assert.is(await withConnection(db, backendPid), first);
  assert.is((await within(2000, db.raw('select pg_backend_pid() as pid'))).rows[0].pid, first);
  assert.is((await within(2000, query<{ pid: number }>(db, 'select pg_backend_pid() as pid', [])))[0].pid, first);
  assert.is(await within(2000, db.transaction((trx) => backendPid(trx))), first);
});

t('a borrower who finds the pool full gets the connection released, in turn', async () => {
  const order: string[] = [];
  let builder: Promise<unknown> | undefined;
  let request: Promise<number> | undefined;
  const first = await withConnection(db, async (conn) => {
    // the pool's one connection is lent: these two wait, in this order
    builder = db.raw('select pg_backend_pid() as pid').then((r) => { order.push('builder'); return r.rows[0].pid; });
    await new Promise((r) => setTimeout(r, 20)); // the builder asks for its connection a few ticks after it starts
    request = withConnection(db, async (c) => {
      const pid = await backendPid(c);
      order.push('request');
      return pid;
    });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(order, [], 'both wait while the connection is lent');
    return backendPid(conn);
  });
  assert.equal(await within(500, Promise.all([builder, request])), [first, first]);
  assert.equal(order, ['builder', 'request']);
});

t('whoever waits in the pool\'s own queue gets the connection when it is released', async () => {
  let waiting: Promise<unknown> | undefined;
  const tarn = (db.client as { pool: Pool & { acquire(): { promise: Promise<unknown> }; release(c: unknown): boolean } }).pool;
  await withConnection(db, async (conn) => {
    waiting = tarn.acquire().promise;
    for (let i = 0; i < 50 && pool().numPendingAcquires() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.is(pool().numPendingAcquires(), 1);
    await conn.raw('select 1');
  });
  tarn.release(await within(500, waiting!));
});

t('a borrower waits no longer than the pool\'s acquire timeout', async () => {
  (db.client as { pool: { acquireTimeoutMillis: number } }).pool.acquireTimeoutMillis = 200;
  const refused = await withConnection(db, async () => {
    const started = Date.now();
    const e = await within(2000, withConnection(db, backendPid).then(() => undefined, (err: Error) => err));
    return { e, waited: Date.now() - started };
  });
  assert.is(refused.e?.name, 'KnexTimeoutError');
  assert.ok(refused.waited >= 200 && refused.waited < 1000, `waited ${refused.waited} ms`);
  assert.type(await within(500, withConnection(db, backendPid)), 'number');
});

t('a connection that broke is not lent again: a new one serves who waited for it', async () => {
  let waiting: Promise<number> | undefined;
  const broken = await withConnection(db, async (conn) => {
    waiting = withConnection(db, backendPid);
    const pid = await backendPid(conn);
    // The backend ends its own session, as a database restart or a network failure would.
    await conn.raw('select pg_terminate_backend(pg_backend_pid())').catch(() => undefined);
    await conn.raw('select 1').catch(() => undefined);
    return pid;
  });
  const waited = await within(5000, waiting!);
  assert.ok(waited !== broken, 'a new backend serves the request that waited');
  const next = await within(5000, withConnection(db, backendPid));
  assert.ok(next !== broken, 'a new backend serves the next request');
});

t('a warm connection that broke while it waited is not lent', async () => {
  const warm = await withConnection(db, backendPid);
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  try {
    await other.query('select pg_terminate_backend($1)', [warm]);
  } finally {
    await other.end();
  }
  await new Promise((r) => setTimeout(r, 200)); // the warm connection's socket closes
  const next = await within(5000, withConnection(db, backendPid));
  assert.ok(next !== warm, 'a new backend serves the next request');
});

t('an idle warm connection goes back to the pool, and destroying the pool does not wait for a warm one', async () => {
  await withConnection(db, backendPid);
  assert.is(pool().numUsed(), 1, 'kept warm: lent, in the pool\'s count');
  await new Promise((r) => setTimeout(r, 2200));
  assert.is(pool().numUsed(), 0);
  assert.is(pool().numFree(), 1);
  await withConnection(db, backendPid);
  const started = Date.now();
  await within(2000, db.destroy());
  assert.ok(Date.now() - started < 1000, `destroyed in ${Date.now() - started} ms`);
  db = createKnex(url, 1); // for after.each
});

t.run();
