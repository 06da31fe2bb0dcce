// Totals tables (migrations/support/totals.ts): whatever statements change the source, concurrently or not, a
// totals table summed by key equals a direct group-by of the source, before and after the compaction job, which
// leaves one row per key.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { createTotals } from '../../migrations/support/totals.js';
import { compactTotals } from '../../handlers/shared/compact-totals.js';

const t = suite('totals tables');
let app: TestApp;
t.before(async () => {
  app = await startTestApp();
  await app.db.raw('create table totals_source (id serial primary key, account_id text not null, status text not null, outcome text, currency text not null, amount bigint not null)');
  await createTotals(app.db, { name: 'totals_probe', source: 'totals_source', keys: ['account_id', 'status', 'outcome', 'currency'], nullable: ['outcome'], sums: ['amount'] });
});
t.after(async () => { await app.close(); });

type Op =
  | { kind: 'insert'; rows: { account: number; status: number; outcome: number; currency: number; amount: number }[] }
  | { kind: 'move'; pick: number; status: number; outcome: number }
  | { kind: 'delete'; pick: number };
const ACCOUNTS = ['a', 'b'];
const STATUSES = ['open', 'won', 'lost'];
const OUTCOMES = [null, 'refunded', 'closed'];
const CURRENCIES = ['usd', 'eur'];

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), rows: fc.array(fc.record({ account: fc.nat(1), status: fc.nat(2), outcome: fc.nat(2), currency: fc.nat(1), amount: fc.integer({ min: 0, max: 100_000 }) }), { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), status: fc.nat(2), outcome: fc.nat(2) }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

async function apply(o: Op): Promise<void> {
  await app.db.transaction(async (trx) => {
    if (o.kind === 'insert') {
      await trx('totals_source').insert(o.rows.map((r) => ({ account_id: ACCOUNTS[r.account], status: STATUSES[r.status], outcome: OUTCOMES[r.outcome], currency: CURRENCIES[r.currency], amount: r.amount })));
      return;
    }
    const ids: number[] = await trx('totals_source').orderBy('id').pluck('id');
    if (!ids.length) return;
    const id = ids[o.pick % ids.length];
    // A statement that changes several rows at once, and one that changes nothing a total depends on.
    const some = trx('totals_source').where('id', '>=', id).where('id', '<', id + 3);
    if (o.kind === 'move') await some.update({ status: STATUSES[o.status], outcome: OUTCOMES[o.outcome] });
    else await some.delete();
    await trx('totals_source').where({ id }).update({ id });
  });
}

const direct = async () => (await app.db.raw(`select account_id, status, outcome, currency, count(*)::int as count, sum(amount)::bigint::text as amount
  from totals_source group by 1, 2, 3, 4 order by 1, 2, 3 nulls first, 4`)).rows;
const totals = async () => (await app.db.raw(`select account_id, status, outcome, currency, sum(count)::int as count, sum(amount)::bigint::text as amount
  from totals_probe group by 1, 2, 3, 4 having sum(count) <> 0 order by 1, 2, 3 nulls first, 4`)).rows;

t('a totals table equals a group-by of its source, whatever runs concurrently; compaction leaves one row per key', async () => {
  let totalled = 0;
  await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 16 }), async (ops) => {
    for (let i = 0; i < ops.length; i += 4) await Promise.all(ops.slice(i, i + 4).map(apply));
    const expected = await direct();
    totalled = Math.max(totalled, expected.length);
    assert.equal(await totals(), expected);
    await compactTotals(app.db);
    assert.equal(await totals(), await direct(), 'after compaction');
    const most = (await app.db.raw(`select coalesce(max(n), 0)::int as n from (select count(*) as n from totals_probe group by account_id, status, outcome, currency) k`)).rows[0].n;
    assert.ok(most <= 1, `${most} rows for one key after compaction`);
  }), { numRuns: 25 });
  // (The runs' deletes may empty the source by the end: what matters is that some run had rows to total.)
  assert.ok(totalled > 0, 'some run left rows to total');
});

t.run();
