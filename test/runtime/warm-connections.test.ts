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

t('whoever waits in the pool gets the connection when it is released', async () => {
  let waiting: Promise<unknown> | undefined;
  await withConnection(db, async (conn) => {
    // the pool's one connection is lent: this waits in the pool's queue
    waiting = db.raw('select 1 as one').then((r) => r); // a builder runs when it is awaited
    for (let i = 0; i < 50 && pool().numPendingAcquires() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.is(pool().numPendingAcquires(), 1);
    await conn.raw('select 1');
  });
  assert.equal((await within(500, waiting!) as { rows: unknown[] }).rows, [{ one: 1 }]);
});

t('a connection that broke is not lent again', async () => {
  const broken = await withConnection(db, async (conn) => {
    const pid = await backendPid(conn);
    // The backend ends its own session, as a database restart or a network failure would.
    await conn.raw('select pg_terminate_backend(pg_backend_pid())').catch(() => undefined);
    await conn.raw('select 1').catch(() => undefined);
    return pid;
  });
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
