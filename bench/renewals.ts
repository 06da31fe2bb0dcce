// The renewals scenario: the cost of a renewal must follow the renewals that are due, not the
// memberships that exist. One shop has BENCH_RENEWAL_MEMBERSHIPS live memberships not due (1,000,000 by default) and,
// each round, BENCH_RENEWALS_DUE (3,000) that are due; a fresh database of its own has a shop with the same due
// memberships and none not due. The framework's real path renews them: the period sweep (real time: it finds the
// due rows on the memberships_due_at index in batches and queues one keyed membership_period_step job each), then
// each job's step run in this process one after the other, as a worker would (graphile-worker's own fetching and
// completing is left out): lock, charge the renewal (the same write and collection job as POST /payments), take the
// membership off the index. Against it, a hand-written baseline (bench/renewals-baseline.ts) among the million.
// Rounds alternate the two databases; the due rows are seeded fresh for each (untimed). Printed per renewal: wall
// time (the headline), this process's CPU and, on an embedded server, PostgreSQL's.
import type { Knex } from 'knex';
import type { JobHelpers } from 'graphile-worker';
import { createKnex } from '../runtime/db.js';
import { ensureDatabase, dropDatabase } from '../runtime/bootstrap.js';
import { migrate } from '../runtime/migrate.js';
import { randomToken } from '../runtime/ids.js';
import { membershipPeriodSweep } from '../handlers/memberships/period-sweep.js';
import { MEMBERSHIP_PERIOD_STEP, membershipPeriodStepTask } from '../handlers/memberships/period-step.js';
import { postgresCpuBetween, postgresCpuTicks } from './postgres-cpu.js';
import { renewByHand } from './renewals-baseline.js';
import { renewalShop, seedMemberships, type RenewalShop } from './renewals-seed.js';

export const RENEWALS_SCENARIO = 'renewals';
const NOT_DUE = Number(process.env.BENCH_RENEWAL_MEMBERSHIPS ?? 1_000_000);
const DUE = Number(process.env.BENCH_RENEWALS_DUE ?? 3_000);
const ROUNDS = Number(process.env.BENCH_RENEWAL_ROUNDS ?? 3);
const RATIO_TARGET = 1.1;

interface Cost { wall: number; node: number; database: number | null }
interface Side { db: Knex; shop: RenewalShop }

const STEP_JOBS = `select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
  where t.identifier = ? order by j.id`;

/** The framework's path: the sweep queues the steps, each step runs. Returns how many renewals it wrote. */
async function renewByFramework(db: Knex): Promise<number> {
  await membershipPeriodSweep.run(db);
  const jobs = (await db.raw(STEP_JOBS, [MEMBERSHIP_PERIOD_STEP])).rows as { payload: unknown }[];
  const step = membershipPeriodStepTask(db);
  for (const job of jobs) await step(job.payload, {} as JobHelpers);
  return jobs.length;
}

const renewalsOf = (db: Knex, shop: RenewalShop) => db('payments').where({ account_id: shop.accountId, billing_reason: 'subscription_cycle' });

/** Seeds `count` (DUE) due memberships (untimed), renews them with `work`, checks that each got its one renewal, and leaves
 * no job behind for the servers that the bench starts next. Per renewal costs, in µs. */
async function round(side: Side, tag: string, postmaster: string | null, work: (db: Knex) => Promise<number>,
  o: { count?: number; seeded?: () => Promise<void> } = {}): Promise<Cost> {
  const { db, shop } = side;
  const count = o.count ?? DUE;
  await seedMemberships(db, shop, tag, count, true);
  await db.raw('analyze memberships, payments, payment_methods, members, users');
  await o.seeded?.();
  const before = Number((await renewalsOf(db, shop).count({ n: '*' }))[0].n);
  const database = postgresCpuTicks(postmaster);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const renewed = await work(db);
  const wall = (performance.now() - started) * 1000;
  const used = process.cpuUsage(cpu);
  const databaseUs = postmaster ? postgresCpuBetween(database, postgresCpuTicks(postmaster)) : null;
  const written = Number((await renewalsOf(db, shop).count({ n: '*' }))[0].n) - before;
  if (renewed !== count || written !== count) throw new Error(`${RENEWALS_SCENARIO}: ${count} due, ${renewed} renewed, ${written} renewal payments written`);
  await db.raw(`delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t where t.id = j.task_id
    and (t.identifier = ? or j.key in (select 'collect_payment:' || p.id from payments p where p.account_id = ? and p.billing_reason = 'subscription_cycle'))`,
  [MEMBERSHIP_PERIOD_STEP, shop.accountId]);
  return { wall: wall / count, node: (used.user + used.system) / count, database: databaseUs === null ? null : databaseUs / count };
}

const mean = (costs: Cost[]): Cost => ({
  wall: costs.reduce((n, c) => n + c.wall, 0) / costs.length,
  node: costs.reduce((n, c) => n + c.node, 0) / costs.length,
  database: costs.some((c) => c.database === null) ? null : costs.reduce((n, c) => n + c.database!, 0) / costs.length,
});
const describe = (c: Cost) => `${c.wall.toFixed(0)} µs wall, ${c.node.toFixed(0)} µs CPU${c.database === null ? '' : `, ${c.database.toFixed(0)} µs PostgreSQL`}`;

/** Runs `work` and returns the first statement it made that matches `pattern`, as knex sent it. */
async function statementOf(db: Knex, pattern: RegExp, work: () => Promise<unknown>): Promise<{ sql: string; bindings: unknown[] }> {
  let seen: { sql: string; bindings: unknown[] } | undefined;
  const capture = (q: { sql: string; bindings: unknown[] }) => { if (!seen && pattern.test(q.sql)) seen = q; };
  db.on('query', capture);
  try {
    await work();
  } finally {
    db.off('query', capture);
  }
  if (!seen) throw new Error(`${RENEWALS_SCENARIO}: no statement matched ${pattern}`);
  return seen;
}

async function explain(db: Knex, statement: { sql: string; bindings: unknown[] }): Promise<string[]> {
  const { rows } = await db.raw(`explain (analyze, buffers, costs off, timing off) ${statement.sql.replace(/\$\d+/g, '?')}`, statement.bindings as Knex.RawBinding[]);
  return (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']);
}

// What differs between two renewals of the same plan: the payment itself, its membership, buyer and card, and times.
const PER_ROW = ['id', 'created_at', 'updated_at', 'member_id', 'user_id', 'payment_method_id', 'membership_id', 'renewal_period_start'];

/** The columns in which the hand-written baseline's renewal payments differ from the framework's (none: same work). */
async function differingColumns(db: Knex, shop: RenewalShop, frameworkTag: string, handTag: string): Promise<string[]> {
  const renewalOf = (tag: string) => renewalsOf(db, shop).where('membership_id', 'like', `mem_rb${tag}\\_%`).first();
  const [a, b] = [await renewalOf(frameworkTag), await renewalOf(handTag)];
  if (!a || !b) return ['(no renewal payment found)'];
  return Object.keys(a).filter((k) => !PER_ROW.includes(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k}: ${JSON.stringify(a[k])} / ${JSON.stringify(b[k])}`);
}

export async function measureRenewals(db: Knex, adminUrl: string, postmaster: string | null): Promise<string> {
  const count = (n: number) => n.toLocaleString('en-US');
  const seeding = Date.now();
  const big: Side = { db, shop: await renewalShop(db, 'Bench renewals among many') };
  await seedMemberships(db, big.shop, 'n', NOT_DUE, false);
  await db.raw('analyze memberships, payments, payment_methods, members, users');
  // The same due memberships with none not due: a database of their own, migrated as the bench's.
  const smallName = `bench_renewals_${randomToken(8).toLowerCase()}`;
  const smallUrl = await ensureDatabase(adminUrl, smallName);
  const smallDb = createKnex(smallUrl, 2);
  try {
    await migrate(smallDb, smallUrl);
    const small: Side = { db: smallDb, shop: await renewalShop(smallDb, 'Bench renewals alone') };
    console.log(`${RENEWALS_SCENARIO}: ${count(NOT_DUE)} memberships not due seeded in ${((Date.now() - seeding) / 1000).toFixed(0)} s; `
      + `${count(DUE)} due per round, ${ROUNDS} rounds`);
    // Warm-up (the code's first runs compile), which also shows the sweep's due query as it is sent.
    const dueQuery = await statementOf(smallDb, /due_at <= now\(\)/,
      () => round(small, 'w1', postmaster, renewByFramework, { count: 300 }));
    await round(small, 'w2', postmaster, renewByHand, { count: 300 });
    // The plan of the sweep's due query among the million, with the first round's due rows in place.
    const showPlan = async () => {
      const plan = await explain(db, dueQuery);
      console.log(`  the sweep's due query, ${count(DUE)} due among ${count(NOT_DUE)} not due (EXPLAIN ANALYZE):\n${plan.map((l) => `    ${l}`).join('\n')}`);
    };
    const framework: Cost[] = [];
    const alone: Cost[] = [];
    const byHand: Cost[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      const bigFirst = r % 2 === 1;
      if (bigFirst) framework.push(await round(big, `f${r}`, postmaster, renewByFramework, { seeded: r === 1 ? showPlan : undefined }));
      alone.push(await round(small, `s${r}`, postmaster, renewByFramework));
      if (!bigFirst) framework.push(await round(big, `f${r}`, postmaster, renewByFramework));
      byHand.push(await round(big, `h${r}`, postmaster, renewByHand));
      if (r === 1) {
        const diff = await differingColumns(db, big.shop, 'f1', 'h1');
        if (diff.length) console.log(`  WARNING: the hand-written renewals differ from the framework's (framework / hand-written): ${diff.join('; ')}`);
      }
      console.log(`  round ${r}: among ${count(NOT_DUE)} ${describe(framework.at(-1)!)}; none not due ${describe(alone.at(-1)!)}; `
        + `hand-written ${describe(byHand.at(-1)!)}`);
    }
    const [f, a, h] = [mean(framework), mean(alone), mean(byHand)];
    const ratio = f.wall / a.wall;
    const line = `renewals among ${count(NOT_DUE)} memberships: ${f.wall.toFixed(0)} µs per renewal; ${a.wall.toFixed(0)} with none not due; `
      + `ratio ${ratio.toFixed(2)} (target <= ${RATIO_TARGET}: ${ratio <= RATIO_TARGET ? 'met' : 'MISSED'}); hand-written ${h.wall.toFixed(0)} µs, `
      + `ratio ${(f.wall / h.wall).toFixed(2)} (by CPU: framework ${(f.node + (f.database ?? 0)).toFixed(0)} µs, `
      + `none not due ${(a.node + (a.database ?? 0)).toFixed(0)} µs, hand-written ${(h.node + (h.database ?? 0)).toFixed(0)} µs`
      + `${f.database === null ? ', PostgreSQL not counted' : ''})`;
    console.log(line);
    return line;
  } finally {
    await smallDb.destroy();
    await dropDatabase(adminUrl, smallName);
  }
}
