// The sweeps a sandbox clock runs as it advances (wiring/clock-sweeps.ts: the membership period sweep, the funds
// clearing, export retention, ad delivery) among a large population of accounts at real time: LARGE_TABLE_ROWS
// memberships, payments awaiting clearing, completed exports and delivering ad campaigns of accounts on no clock, all
// of them due at the time the clock is advanced to, none at the wall's. A shop on a clock buys a monthly membership
// (through the API) and its clock is advanced past the renewal; every statement a sweep ran in the clock's scope is
// explained again at the clock's time and must read the clock's accounts' rows (a handful), by index, never the real
// time accounts' (handlers/shared/sweep-scope.ts, migrations/535_clock_sweep_indexes.ts and 540_renewal_indexes.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { DAY, HOUR, lifecycleApi } from '../memberships/lifecycle-fixtures.js';
import { CARDS } from '../payments/payment-fixtures.js';
import { setTransactionClock } from '../../runtime/clock.js';
import { renewalShop, seedMemberships } from '../../bench/renewals-seed.js';
import { assertIndexed, explainStatement, recorded, reportCost, type Recorded } from './statement-cost.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const SWEPT = ['memberships', 'payments', 'exports', 'ad_campaigns'];
const t = suite('large tables: a sandbox clock\'s sweeps among many accounts at real time');
let app: TestApp;

t.before(async () => {
  app = await startTestApp({ worker: true });
  // Half the population is one account's long history, half is spread over 100 others (the planner's estimates per
  // account are then those of a real crowd, not of two accounts).
  const big = await renewalShop(app.db, 'A long history at real time');
  const others = [];
  for (let n = 0; n < 100; n++) others.push(await renewalShop(app.db, `Real time shop ${n}`));
  const owners = [big.accountId, ...others.map((o) => o.accountId)];
  // And a large accounts table, none of them on a clock: a sweep on a clock starts from the clock's accounts.
  await app.db.raw( // sql-state-write: bulk seed of a large accounts table (as test/large_tables/accounts-by-volume.test.ts)
    `insert into accounts (id, parent_id, title, route, client_id, created_at, updated_at)
    select 'biz_clk' || lpad(i::text, 8, '0'), ?, 'Shop ' || i, 'clk-' || i, 'client_clk' || i, now(), now()
    from generate_series(1, ?) i`, [big.accountId, ROWS]);
  // Memberships due within the next 29 days at real time: all due 30 days ahead, where the clock goes.
  await seedMemberships(app.db, big, 'clk', ROWS / 2, false); // sql-state-write: bulk seed of memberships at real time (bench/renewals-seed.ts), as purchases leave them
  for (const [n, o] of others.entries()) await seedMemberships(app.db, o, `clk${n}x`, Math.ceil(ROWS / 200), false); // sql-state-write: the same, spread over other accounts
  // Row i belongs to the long history when even, to one of the others when odd.
  const owner = `(case when i % 2 = 0 then ?::text else (?::text[])[1 + (i / 2) % 100] end)`;
  const ownerBindings = [big.accountId, owners.slice(1)];
  // sql-state-write: bulk seed of payments settled in the last hours, their funds clearing in two days (at real time: not yet)
  await app.db.raw(`insert into payments (id, account_id, status, billing_reason, currency, subtotal, total, usd_total, settlement_time_at, created_at, updated_at)
    select 'pay_clk' || lpad(i::text, 8, '0'), ${owner}, 'succeeded', 'one_time', 'usd', 1000, 1000, 1000, now() - i * interval '1 second', now(), now()
    from generate_series(1, ?) i`, [...ownerBindings, ROWS]);
  // sql-state-write: bulk seed of exports completed in the last hours, expiring in 30 days
  await app.db.raw(`insert into exports (id, account_id, resource, api_version, status, completed_at, created_at, updated_at)
    select 'exp_clk' || lpad(i::text, 8, '0'), ${owner}, 'payments', '2026-07-20', 'completed', now() - i * interval '1 second', now(), now()
    from generate_series(1, ?) i`, [...ownerBindings, ROWS]);
  // sql-state-write: bulk seed of launched campaigns delivered through tomorrow (at real time nothing is due before then)
  await app.db.raw(`insert into ad_campaigns (id, account_id, title, objective, platform, status, budget_amount, budget_type, budget_optimization,
      bid_type, currency, special_ad_categories, issues, launched_at, delivered_through, spent_total, created_at, updated_at)
    select 'adcamp_clk' || lpad(i::text, 8, '0'), ${owner}, 'Campaign ' || i, 'traffic', 'meta', 'active', 1000, 'daily', 'campaign',
      'lowest_cost', 'usd', '[]', '[]', now() - interval '1 day', date_trunc('hour', now()) + interval '1 day', 0, now(), now()
    from generate_series(1, ?) i`, [...ownerBindings, ROWS]);
  await app.db.raw('analyze memberships, payments, exports, ad_campaigns, accounts');
});
t.after(async () => { await app.close(); });

const LARGE = ['accounts', 'memberships', 'payments', 'payment_methods', 'members', 'users', 'exports', 'ad_campaigns'];
const readsOf = (text: string) => LARGE.filter((table) => new RegExp(`(from|join) "?${table}"?[\\s)]`, 'i').test(text));

t('advancing a clock past a renewal and a dunning retry reads its accounts\' rows only, whatever is due at real time', async () => {
  const api = lifecycleApi(app);
  const shop = await api.shop();
  const variant = await api.variant(shop, { plan_type: 'renewal', billing_period: 30, initial_price: 1500, renewal_price: 1500 });
  const renewing = await api.buy(shop, variant.id);
  // A card that needs the buyer fails its renewal off-session: past_due, retried 3 days after it fell due.
  const dunned = await api.buy(shop, variant.id, CARDS.challenge);
  const due = shop.t0 + 30 * DAY;
  const target = due + 3 * DAY + HOUR;
  const { statements } = await recorded(() => api.advanceTo(shop, target));
  const [renewal] = await api.renewals(shop, renewing.membershipId);
  assert.is(renewal?.status, 'succeeded', 'the clock\'s membership renewed');
  const [failed] = await api.renewals(shop, dunned.membershipId);
  assert.is(Date.parse(failed.last_payment_attempt_at), due + 3 * DAY, 'the failed renewal was retried on schedule');

  // Every read the advance made of the large tables (the sweeps' scoped queries, the steps' reads of one
  // membership, payment or card), once each. The real-time crons' own sweeps, which the worker may run meanwhile, are
  // not the clock's (they name the real-time scope: sweep-scope.ts inClockScope).
  const reads = new Map<string, Recorded>();
  for (const s of statements) {
    if (/^\s*select\b/i.test(s.text) && readsOf(s.text).length && !s.text.includes("current_setting('app.clock_id'") && !reads.has(s.text)) reads.set(s.text, s);
  }
  const named = [...reads.keys()].map((text) => text.slice(0, 60)).join(' | ');
  for (const table of SWEPT) {
    assert.ok([...reads.keys()].some((text) => /clock_id = \$\d/.test(text) && readsOf(text).includes(table)), `a sweep read ${table} on the clock: ${named}`);
  }
  const atClock = (trx: Parameters<typeof setTransactionClock>[0]) => setTransactionClock(trx, { clockId: shop.clockId, now: new Date(target).toISOString() });
  // Every statement is measured before any is judged, so that one failure shows them all.
  const costly: string[] = [];
  for (const statement of reads.values()) {
    const cost = await explainStatement(app.db, statement, atClock);
    reportCost(statement.text.slice(0, 80), cost);
    for (const table of LARGE) {
      try {
        assertIndexed(cost, table, { bitmap: true });
        assert.ok((cost.rowsRead[table] ?? 0) <= 20, `${table} rows read: ${cost.rowsRead[table]}`);
      } catch (e) { costly.push(`${(e as Error).message} by ${statement.text} (${cost.plan})`); }
    }
  }
  assert.equal(costly, []);
});

t.run();
