// pg's rows read with shapes kept per connection (runtime/pg-row-shapes.ts): each statement's rows still have exactly
// its own columns, values and parsers, however alike two statements' columns look and whatever changed in between.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import '../../runtime/pg-row-shapes.js';
import { startTestApp, type TestApp } from '../helpers/harness.js';

const t = suite('runtime: pg row shapes');
let app: TestApp;
let a: pg.Client;
let b: pg.Client;
t.before(async () => {
  app = await startTestApp();
  a = new pg.Client({ connectionString: app.databaseUrl });
  b = new pg.Client({ connectionString: app.databaseUrl });
  await Promise.all([a.connect(), b.connect()]);
});
t.after(async () => {
  await Promise.all([a.end(), b.end()]);
  await app.close();
});

const rows = async (client: pg.Client, text: string, values: unknown[] = []) => (await client.query(text, values)).rows;

t('statements alike at the ends but not in the middle each get their own columns and values', async () => {
  for (let round = 0; round < 3; round++) {
    assert.equal(await rows(a, "select 1 as first, 2 as middle, 'x' as last"), [{ first: 1, middle: 2, last: 'x' }]);
    assert.equal(await rows(a, "select 1 as first, 'two' as other, 'x' as last"), [{ first: 1, other: 'two', last: 'x' }]);
    // The same names, another type: its own parser.
    assert.equal(await rows(a, "select 1 as first, '2' as middle, 'x' as last"), [{ first: 1, middle: '2', last: 'x' }]);
    assert.equal(Object.keys((await rows(a, "select 1 as first, 2 as middle, 'x' as last"))[0]), ['first', 'middle', 'last']);
  }
});

t('a table whose columns change answers the same statement with its new columns', async () => {
  await a.query('create temporary table shape_probe (id int, name text)');
  await a.query("insert into shape_probe values (1, 'one')");
  assert.equal(await rows(a, 'select * from shape_probe'), [{ id: 1, name: 'one' }]);
  assert.equal(await rows(a, 'select * from shape_probe'), [{ id: 1, name: 'one' }]);
  await a.query("alter table shape_probe add column note text default 'n', alter column name type int using 7");
  assert.equal(await rows(a, 'select * from shape_probe'), [{ id: 1, name: 7, note: 'n' }]);
});

t('a column named twice keeps the later value, as pg does', async () => {
  assert.equal(await rows(a, 'select 1 as x, 2 as x'), [{ x: 2 }]);
  assert.equal(await rows(a, 'select 1 as x, 2 as x'), [{ x: 2 }]);
});

t('any column name is a column: quotes, backslashes, line breaks, code-like text and __proto__', async () => {
  const names = ['it\'s', 'back\\slash', 'two\nlines', '"}; throw 1; ({"', '__proto__', 'constructor', 'ünïcode ✓', '0'];
  const text = `select ${names.map((n, i) => `${i}::int4 as "${n.replaceAll('"', '""')}"`).join(', ')}`;
  for (let round = 0; round < 2; round++) {
    const [row] = await rows(a, text);
    assert.equal(Object.keys(row).sort(), [...names].sort());
    names.forEach((n, i) => assert.is(Object.getOwnPropertyDescriptor(row, n)?.value, i, n));
    assert.is(Object.getPrototypeOf(row), Object.prototype, 'a column named __proto__ is not the row\'s prototype');
  }
});

t('a wide row (70 columns, as a payment is read) keeps its columns in order with their parsers', async () => {
  const text = `select ${Array.from({ length: 70 }, (_, i) => (i % 2 ? `'v${i}'::text as c${i}` : `${i}::int4 as c${i}`)).join(', ')}`;
  const expected = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`c${i}`, i % 2 ? `v${i}` : i]));
  for (let round = 0; round < 2; round++) {
    const [row] = await rows(b, text);
    assert.equal(row, expected);
    assert.equal(Object.keys(row), Object.keys(expected));
  }
});

t('nulls, many rows and no rows', async () => {
  assert.equal(await rows(a, 'select g as n, case when g % 2 = 0 then null else g::text end as s from generate_series(1, 4) g'),
    [{ n: 1, s: '1' }, { n: 2, s: null }, { n: 3, s: '3' }, { n: 4, s: null }]);
  assert.equal(await rows(a, 'select 1 as n where false'), []);
});

t("a client's own type parser is its own: the same shape on another client keeps the default", async () => {
  a.setTypeParser(23, (v: string) => `int:${v}`);
  assert.equal(await rows(a, 'select 5::int4 as n'), [{ n: 'int:5' }]);
  assert.equal(await rows(b, 'select 5::int4 as n'), [{ n: 5 }]);
  assert.equal(await rows(a, 'select 5::int4 as n'), [{ n: 'int:5' }]);
});

t('rows as arrays and binary results read as pg reads them', async () => {
  const asArrays = await b.query({ text: "select 1 as n, 'x' as s", rowMode: 'array' });
  assert.equal(asArrays.rows, [[1, 'x']]);
  assert.equal(asArrays.fields.map((f) => f.name), ['n', 's']);
  const binary = await b.query({ text: "select 1::int4 as n, 'x'::text as s", binary: true } as pg.QueryConfig);
  assert.equal(binary.rows, [{ n: 1, s: 'x' }]);
});

t.run();
