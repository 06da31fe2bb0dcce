// A select built with the query builder is compiled once per shape (runtime/built-statements.ts): a later builder of
// the same shape gets the text from memory and its own values in the order knex binds them. Whatever the builder,
// the answer must be exactly knex's own compile of it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import knex, { type Knex } from 'knex';
import { compileBuilt } from '../../runtime/built-statements.js';

const t = suite('runtime: selects compiled once per shape');
const db = knex({ client: 'pg' });
/** Counts knex's compiles (every compile of a builder makes a query compiler). */
let compiles = 0;
const client = db.client as { queryCompiler: (...args: unknown[]) => unknown };
const makeCompiler = client.queryCompiler.bind(client);
client.queryCompiler = (...args) => {
  compiles++;
  return makeCompiler(...args);
};
const compilesIn = <T>(run: () => T): [T, number] => {
  const before = compiles;
  const result = run();
  return [result, compiles - before];
};
const native = (q: Knex.QueryBuilder) => {
  const { sql, bindings } = q.toSQL().toNative();
  return { sql, bindings };
};

// Few columns and fragments, so that shapes repeat with other values; values of every kind a list binds, including
// text that looks like SQL.
const column = fc.constantFrom('payments.status', 'payments.plan_id', 'payments.created_at', 'u.name');
const text = fc.oneof(fc.string(), fc.constantFrom('?', '$1', "o'brien", '??', '\\?', 'pay_1'));
const value = fc.oneof(text, fc.integer(), fc.boolean(), fc.date({ noInvalidDate: true }), fc.array(fc.string(), { maxLength: 3 }));
const raws: [string, number][] = [['payments.deleted_at is null', 0], ['(payments.created_at, payments.id) < (?, ?)', 2],
  ['payments.account_id >= (select ?::text) and payments.account_id <= (select ?::text)', 2], ['lower(u.name) like ?', 1],
  ["payments.note <> 'a \\? b'", 0], ['payments.currency = any(?::text[])', 1]];
const raw = fc.constantFrom(...raws).chain(([sql, n]) => fc.tuple(fc.constant(sql), fc.array(value, { minLength: n, maxLength: n })));

type Op = (q: Knex.QueryBuilder) => void;
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.tuple(column, fc.constantFrom('=', '<', '>', '<>'), value).map(([c, o, v]): Op => (q) => { q.where(c, o, v as never); }),
  fc.tuple(column, value).map(([c, v]): Op => (q) => { q.where(c, v as never); }),
  fc.tuple(column, fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 })).map(([c, vs]): Op => (q) => { q.whereIn(c, vs); }),
  fc.tuple(column, fc.array(fc.string(), { maxLength: 2 })).map(([c, vs]): Op => (q) => { q.orWhereNotIn(c, vs); }),
  raw.map(([sql, bs]): Op => (q) => { q.whereRaw(sql, bs as never); }),
  raw.map(([sql, bs]): Op => (q) => { q.orWhereRaw(sql, bs as never); }),
  column.map((c): Op => (q) => { q.whereNull(c); }),
  fc.tuple(column, fc.constantFrom('asc', 'desc')).map(([c, d]): Op => (q) => { q.orderBy(c, d); }),
  fc.constantFrom('payments.account_id desc', 'payments.id asc').map((sql): Op => (q) => { q.orderByRaw(sql); }),
  fc.nat(1000).map((n): Op => (q) => { q.limit(n); }),
  fc.nat(1000).map((n): Op => (q) => { q.offset(n); }),
  // what is compiled by knex alone: a callback, a subquery, an identifier binding
  fc.tuple(column, text).map(([c, v]): Op => (q) => { q.where((w) => w.where(c, v).orWhereNull(c)); }),
  fc.tuple(column, text).map(([c, v]): Op => (q) => { q.whereIn(c, db('users').select('id').where('name', v)); }),
  column.map((c): Op => (q) => { q.whereRaw('?? is not null', [c]); }),
);

const start = fc.tuple(fc.constantFrom('payments.id, payments.status', 'payments.*, ? as kind'), fc.string())
  .map(([select, kind]) => () => db.queryBuilder()
    .select(select.includes('?') ? db.raw(select, [kind]) : db.raw(select))
    .fromRaw('payments left join users u on u.id = payments.user_id'));

t('any builder compiles to what knex compiles, and is left as it was', () => {
  let runs = 0;
  let fromMemory = 0;
  fc.assert(fc.property(start, fc.array(op, { maxLength: 8 }), (begin, ops) => {
    const q = begin();
    for (const o of ops) o(q);
    const ours = compileBuilt(q);
    assert.equal(ours, native(q));
    // again, now that the shape is known
    const [again, compiled] = compilesIn(() => compileBuilt(q));
    assert.equal(again, native(q));
    runs++;
    if (compiled === 0) fromMemory++;
  }), { numRuns: 3000 });
  // Most generated builders hold nothing that only knex compiles.
  assert.ok(fromMemory > runs / 4, `${fromMemory} of ${runs} answered from memory`);
});

t('a known shape is answered without compiling, with the new values in knex\'s order', () => {
  const page = (account: string, after: [string, string], limit: number) => db.queryBuilder().select(db.raw('payments.*'))
    .fromRaw('payments').whereRaw('(payments.created_at, payments.id) < (?, ?)', after)
    .whereRaw('payments.account_id >= (select ?::text) and payments.account_id <= (select ?::text)', [account, account])
    .where('payments.status', 'succeeded').orderByRaw('payments.account_id desc').orderBy('payments.created_at', 'desc').limit(limit);
  const first = page('biz_1', ['2026-01-01T00:00:00.000Z', 'pay_1'], 11);
  assert.equal(compileBuilt(first), native(first));
  const second = page('biz_2', ['2026-02-01T00:00:00.000Z', 'pay_2'], 6);
  const expected = native(second);
  const [ours, compiled] = compilesIn(() => compileBuilt(second));
  assert.is(compiled, 0, 'not compiled again');
  assert.equal(ours, expected);
  assert.equal(expected.bindings, ['2026-02-01T00:00:00.000Z', 'pay_2', 'biz_2', 'biz_2', 'succeeded', 6]);
});

t('an offset of 0 (no offset clause) and any other offset are shapes of their own', () => {
  const q = (offset: number) => db.queryBuilder().select(db.raw('payments.id')).fromRaw('payments').where('payments.status', 'x').offset(offset);
  for (const offset of [0, 5, 0, 7, 0]) {
    const built = q(offset);
    const [ours, compiled] = compilesIn(() => compileBuilt(built));
    assert.equal(ours, native(built));
    if (offset === 0) assert.not.ok(ours.sql.includes('offset'));
    if (offset === 7) assert.is(compiled, 0, 'the offset shape answered from memory');
  }
});

t.after(() => db.destroy());
t.run();
