// A series over a short window of an account with a long history: the day rows of the window are read, not every
// day row the account ever had. Three years of payments (one a day) give the account ~1,100 day rollups; a day's
// series reads a few of them, and a year's about a year's. Before, the range's ends were compared in a join filter
// and every day row of the account was read whatever the window (365 of 365 for one day in the bench) unless the
// statistics happened to steer the planner to a parameterised scan; here they are left as the inserts leave them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { recorded, costOf } from './statement-cost.js';

const DAYS = Number(process.env.LARGE_TABLE_DAYS ?? 1_100);
const t = suite('large tables: a stats window over a long history');
let app: TestApp;
let owner: Awaited<ReturnType<typeof makeOwner>>;

t.before(async () => {
  app = await startTestApp();
  owner = await makeOwner(app.db);
  await app.db.raw( // sql-state-write: bulk seeding for a query-plan case: three years of daily payments through the API would take far longer than the test
    `insert into payments (id, account_id, user_id, status, billing_reason, currency, subtotal, total, usd_total, created_at, updated_at)
    select 'pay_hist' || lpad(i::text, 6, '0'), ?, ?, 'succeeded', 'one_time', 'usd', 1000, 1000, 1000,
      date_trunc('day', now()) - i * interval '1 day' + interval '12 hours', now()
    from generate_series(1, ?) i`, [owner.accountId, owner.owner.id, DAYS]);
});
t.after(async () => { await app.close(); });

const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);

async function series(from: string, to: string) {
  const { result, statements } = await recorded(() => app.request('GET', '/stats/time_series/gross_revenue', {
    token: owner.key, version: headVersion(), query: { account_id: owner.accountId, from, to, interval: 'day', time_zone: 'UTC' },
  }));
  assert.is(result.status, 200, JSON.stringify(result.body));
  const cost = await costOf(app.db, statements, /as corrections/); // handlers/stats/series.ts SERIES
  if (process.env.LARGE_TABLE_REPORT) console.log(JSON.stringify({ from, to, rowsRead: cost.rowsRead, buffers: cost.buffers, plan: cost.plan }));
  return { body: result.body, rollups: cost.rowsRead.stat_rollups ?? 0, plan: cost.plan };
}

t('a day\'s series reads that day\'s rollups, not the account\'s history', async () => {
  const { body, rollups, plan } = await series(day(2), day(2));
  assert.equal(body.data.points.map((p: { value: number; count: number }) => [p.value, p.count]), [[1000, 1]]);
  assert.ok(rollups <= 10, `read ${rollups} rollup rows for one day of ${DAYS}: ${plan}`);
});

t('a year\'s series reads about a year of them', async () => {
  const { body, rollups, plan } = await series(day(365), day(1));
  assert.is(body.data.points.length, 365);
  assert.is(body.data.points.reduce((s: number, p: { count: number }) => s + p.count, 0), 365);
  assert.ok(rollups <= 400, `read ${rollups} rollup rows for a year of ${DAYS} days: ${plan}`);
});

t.run();
