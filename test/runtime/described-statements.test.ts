// Prepared statements executed without Describe once their columns are known on the connection
// (runtime/described-statements.ts): the rows are what pg reads with the description, on every execution, for every
// connection, whatever the client's type parsers, and a change to the columns is refused by PostgreSQL, never read
// with the old ones.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import '../../runtime/pg-row-shapes.js';
import { namedQuery } from '../../runtime/described-statements.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

const t = suite('runtime: described statements');
let app: TestApp;
let a: pg.Client;
let b: pg.Client;
/** RowDescription messages each client received */
const described = new Map<pg.Client, number>();
t.before(async () => {
  app = await startTestApp();
  a = new pg.Client({ connectionString: app.databaseUrl });
  b = new pg.Client({ connectionString: app.databaseUrl });
  await Promise.all([a.connect(), b.connect()]);
  for (const client of [a, b]) {
    described.set(client, 0);
    (client as unknown as { connection: pg.Connection }).connection.on('rowDescription', () => described.set(client, described.get(client)! + 1));
  }
});
t.after(async () => {
  await Promise.all([a.end(), b.end()]);
  await app.close();
});

let names = 0;
const fresh = () => `described_probe_${++names}`;
function run(client: pg.Client, name: string, text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    client.query(namedQuery(client, name, text, values, (err, result) => (err ? reject(err) : resolve(result.rows as Record<string, unknown>[]))));
  });
}

/** The error `pending` failed with, which must match `expected`. */
async function refused(pending: Promise<unknown>, expected: RegExp): Promise<void> {
  const outcome = await pending.then(() => 'answered', (e: Error) => e.message);
  assert.match(outcome, expected);
}

const SERIES = `select n as id, case when n % 2 = 0 then null else 'odd ' || n end as label, n * 1.5 as half,
  now() - make_interval(days => n) < now() as past from generate_series(1, $1::int) as n`;
const expected = (count: number) => Array.from({ length: count }, (_, i) => ({
  id: i + 1, label: (i + 1) % 2 === 0 ? null : `odd ${i + 1}`, half: ((i + 1) * 1.5).toFixed(1), past: true,
}));

t('a statement is described on its first execution only, and every execution reads the same rows pg reads', async () => {
  const name = fresh();
  const before = described.get(a)!;
  for (const count of [3, 0, 5, 1, 4]) assert.equal(await run(a, name, SERIES, [count]), expected(count));
  // Its first execution was described (three rows); an empty one is not described again either.
  assert.is(described.get(a)! - before, 1);
  // Without the name, as pg reads it: the same rows.
  assert.equal((await a.query(SERIES, [4])).rows, expected(4));
});

t('each connection learns the columns for itself', async () => {
  const name = fresh();
  const [beforeA, beforeB] = [described.get(a)!, described.get(b)!];
  assert.equal(await run(a, name, SERIES, [2]), expected(2));
  assert.equal(await run(a, name, SERIES, [2]), expected(2));
  assert.equal(await run(b, name, SERIES, [3]), expected(3));
  assert.equal(await run(b, name, SERIES, [3]), expected(3));
  assert.is(described.get(a)! - beforeA, 1);
  assert.is(described.get(b)! - beforeB, 1);
});

t('a statement without rows, and one whose first execution failed, run again', async () => {
  const table = fresh();
  await a.query(`create temporary table ${table} (id int primary key)`);
  const insert = fresh();
  await run(a, insert, `insert into ${table} values ($1)`, [1]);
  await refused(run(a, insert, `insert into ${table} values ($1)`, [1]), /duplicate key/);
  await run(a, insert, `insert into ${table} values ($1)`, [2]);
  assert.equal((await a.query(`select id from ${table} order by id`)).rows, [{ id: 1 }, { id: 2 }]);
  // A failed first execution (described, then refused) teaches nothing: the next one is described again.
  const returning = fresh();
  const before = described.get(a)!;
  await refused(run(a, returning, `insert into ${table} values ($1) returning id, id * 10 as tens`, [2]), /duplicate key/);
  assert.equal(await run(a, returning, `insert into ${table} values ($1) returning id, id * 10 as tens`, [3]), [{ id: 3, tens: 30 }]);
  assert.equal(await run(a, returning, `insert into ${table} values ($1) returning id, id * 10 as tens`, [4]), [{ id: 4, tens: 40 }]);
  assert.is(described.get(a)! - before, 2);
});

t('values are bound as pg binds them: dates, arrays, objects, bytes, booleans and nulls', async () => {
  const name = fresh();
  const text = `select $1::timestamptz as at, $2::int[] as list, $3::jsonb as doc, $4::bytea as bytes, $5::bool as flag,
    $6::text as nothing, $7::text as quoted`;
  const cases: unknown[][] = [
    [new Date('2026-07-20T12:34:56.789Z'), [1, 2, 3], { a: [1, 'two'], b: null }, Buffer.from([0, 1, 255]), true, null, "it's"],
    [new Date(0), [], { nested: { deep: true } }, Buffer.alloc(0), false, null, '{"a":1}'],
  ];
  for (let round = 0; round < 2; round++) {
    for (const values of cases) assert.equal(await run(a, name, text, values), (await a.query(text, values)).rows);
  }
});

t("the client's type parsers read the rows, as set when each execution is sent", async () => {
  const name = fresh();
  const text = 'select $1::int8 as big';
  const own = (await a.query(text, [7])).rows[0].big;
  assert.equal(await run(a, name, text, [7]), [{ big: own }]);
  const before = a.getTypeParser(20);
  a.setTypeParser(20, (value: string) => `int8 ${value}`);
  try {
    assert.equal(await run(a, name, text, [8]), [{ big: 'int8 8' }]);
  } finally {
    a.setTypeParser(20, before);
  }
  assert.equal(await run(a, name, text, [7]), [{ big: own }]);
});

t('a change to the columns is refused by PostgreSQL, not read with the columns learnt before', async () => {
  const table = fresh();
  await a.query(`create temporary table ${table} (id int, name text)`);
  await a.query(`insert into ${table} values (1, 'one')`);
  const name = fresh();
  assert.equal(await run(a, name, `select * from ${table} where id = $1`, [1]), [{ id: 1, name: 'one' }]);
  assert.equal(await run(a, name, `select * from ${table} where id = $1`, [1]), [{ id: 1, name: 'one' }]);
  await a.query(`alter table ${table} add column note text default 'n'`);
  await refused(run(a, name, `select * from ${table} where id = $1`, [1]), /cached plan must not change result type/);
});

t.run();
