// The deprecation report (npm run cli -- deprecations, handlers/api_logs/deprecated-usage.ts) on a large api log:
// LARGE_TABLE_ROWS batches (default 20,000) written in time order over 70 days, a tenth of them in the last week. The
// report must read the week's batches through the last_at BRIN index of migrations/490, not the whole table.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { operations } from '../../generated/routes.js';
import { deprecationReport } from '../../handlers/api_logs/deprecated-usage.js';
import { assertIndexed, costOf, recorded, reportCost } from './statement-cost.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const t = suite('large tables: the deprecation report reads the window only');
let app: TestApp;
let accountId: string;

t.before(async () => {
  app = await startTestApp();
  accountId = (await makeOwner(app.db)).accountId;
  // Oldest first, as the writer appends them: batch i ends (ROWS - i) * 70 days / ROWS ago.
  // sql-state-write: bulk seeding for a query-plan case: ROWS batches through the API would take far longer than the test
  await app.db.raw(`insert into api_log_batches (id, account_id, first_at, last_at, entries, api_key_ids, user_ids, kinds, operations,
      methods, paths, statuses, durations, versions, request_ids, created_ms)
    select 'alogb_dep' || i, '${accountId}', at, at, 1, 'apik_dep', '', 'api_key', case when i % 2 = 0 then 'listPlans' else 'listVariants' end,
      'GET', '/plans', '200', '3', '2026-09-06', 'req_dep' || lpad(i::text, 12, '0'), ((extract(epoch from at) * 1000)::bigint)::text
    from (select i, date_trunc('milliseconds', now() - ((${ROWS} - i) * interval '70 days' / ${ROWS})) as at from generate_series(1, ${ROWS}) i) s`);
  await app.db.raw('analyze api_log_batches');
});
t.after(async () => { await app.close(); });

t('the week\'s batches are found through the BRIN index; the older nine tenths are not read row by row', async () => {
  const { result, statements } = await recorded(() => deprecationReport(app.db, operations, 7));
  const plans = result.operations.find((op) => op.operation === 'listPlans')!;
  const inWeek = Math.floor(ROWS / 10);
  assert.ok(Math.abs(plans.accounts[0].calls - inWeek / 2) <= 2, `${plans.accounts[0].calls} calls of listPlans in the week`);
  const cost = await costOf(app.db, statements, /from api_log_batches b/);
  reportCost('deprecation report', cost);
  assertIndexed(cost, 'api_log_batches', { bitmap: true });
  assert.ok(cost.nodes.some((n) => n.includes('api_log_batches_last_at_brin') || n.includes('api_log_batches_account_last_at')), cost.plan);
  assert.ok((cost.rowsRead.api_log_batches ?? 0) <= 2 * inWeek, `read ${cost.rowsRead.api_log_batches} batches for ${inWeek} in the week: ${cost.plan}`);
});

t.run();
