// One account's payments listed when other accounts' payments are newer: LARGE_TABLE_ROWS older payments of one
// account and as many newer ones of another, the statistics gathered then, so the planner believes the account holds
// half of every stretch of the table. Written as `account_id = value`, the page walked payments_created_at_id_index
// (the platform's lists across accounts) from the newest payment and skipped every other account's (34 ms over
// 83,000 buffers in the bench once a second account had 36,000 newer payments); led by the account
// (runtime/pagination.ts, Leading), it reads about a page of an index holding the account first, with or without a
// status walked after it. Each page is read over HTTP, checked against the rows SQL lists, paged on, and explained.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { pagePlan, planWithout, preparedPlan, recordStatements, stopRecordingStatements, type PagePlan } from '../helpers/page-plans.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const PAGE = 20;
const t = suite('large tables: an account\'s list under other accounts\' newer rows');
let app: TestApp;
let older: Awaited<ReturnType<typeof makeOwner>>;
let newer: Awaited<ReturnType<typeof makeOwner>>;

recordStatements();
t.before(async () => {
  app = await startTestApp();
  older = await makeOwner(app.db);
  newer = await makeOwner(app.db);
  const seed = (owner: typeof older, prefix: string, count: number, start: string, step: string) => app.db.raw( // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
    `insert into payments (id, account_id, user_id, status, billing_reason, currency, subtotal, total, usd_total, created_at, updated_at)
    select '${prefix}' || lpad(i::text, 8, '0'), ?, ?, case i % 10 when 0 then 'failed' else 'succeeded' end,
      'one_time', 'usd', 1000, 1000, 1000, ${start} - i * interval '${step}', now()
    from generate_series(1, ?) i`, [owner.accountId, owner.owner.id, count]);
  // Both accounts' histories over the same month, then the newer account's latest burst.
  await seed(older, 'pay_old', ROWS, "now() - interval '1 day'", '2 minutes');
  await seed(newer, 'pay_new', ROWS, "now() - interval '1 day' - interval '1 minute'", '2 minutes');
  await seed(newer, 'pay_burst', ROWS / 20, 'now()', '1 second');
  await app.db.raw('analyze payments');
});
t.after(async () => { stopRecordingStatements(); await app.close(); });

/** The ids SQL lists for the account, newest first, from `offset`. */
async function expected(accountId: string, offset: number, statuses?: string[]): Promise<string[]> {
  const q = app.db('payments').where({ account_id: accountId });
  if (statuses) q.whereIn('status', statuses);
  const rows = await q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).offset(offset).limit(PAGE).select('id');
  return rows.map((r: { id: string }) => r.id);
}

/** A page read over HTTP, with its statement's plan: an index led by the account, about a page of it read. */
async function page(owner: typeof older, query: Record<string, string>): Promise<PagePlan> {
  const measured = await pagePlan(app, 'GET', '/payments', { token: owner.key, version: headVersion(), query: { account_id: owner.accountId, first: String(PAGE), ...query } }, 'payments');
  if (process.env.LARGE_TABLE_REPORT) console.log(JSON.stringify({ query, plan: measured.plan, scanned: measured.scanned, buffers: measured.buffers }));
  assert.not.ok(measured.nodes.some((n) => n.includes('payments_created_at_id_index')), `walks the index across accounts: ${measured.plan}`);
  assert.not.ok(measured.sortsUnbounded, `sorts every payment of the account: ${measured.plan}`);
  assert.ok(measured.scanned <= 2 * (PAGE + 1), `scanned ${measured.scanned} payments for a page of ${PAGE}: ${measured.plan}`);
  // Whatever the statistics say: without the indexes holding the account first, nothing gives the page's order but
  // a sort (as `account_id = value`, the planner walked the index across accounts and tested each row instead).
  const without = await planWithout(app, measured.statement, ['payments_account_id_created_at_id_index', 'payments_account_status_created']);
  assert.not.ok(without.some((n) => n.includes('payments_created_at_id_index')), `the index across accounts gives the order: ${without.join(' > ')}`);
  return measured;
}

const ids = (p: PagePlan) => p.res.body.data.map((d: { id: string }) => d.id);

t('the older account\'s pages read about a page of its own index, forward and back', async () => {
  const first = await page(older, {});
  assert.equal(ids(first), await expected(older.accountId, 0));
  const second = await page(older, { after: first.res.body.page_info.end_cursor });
  assert.equal(ids(second), await expected(older.accountId, PAGE));
  const back = await pagePlan(app, 'GET', '/payments', { token: older.key, version: headVersion(),
    query: { account_id: older.accountId, last: String(PAGE), before: second.res.body.page_info.start_cursor } }, 'payments');
  assert.equal(ids(back), await expected(older.accountId, 0));
  // Its page costs about what the newer account's does (a page of index each).
  const newest = await page(newer, {});
  assert.equal(ids(newest), await expected(newer.accountId, 0));
  assert.ok(first.buffers <= 4 * newest.buffers + 20, `older ${first.buffers} buffers, newer ${newest.buffers}`);
});

t('with a status walked after the account, and with several', async () => {
  const failed = await page(older, { status: 'failed' });
  assert.equal(ids(failed), await expected(older.accountId, 0, ['failed']));
  const res = await app.request('GET', '/payments', { token: older.key, version: '2026-07-20',
    query: { company_id: older.accountId, statuses: ['paid', 'open'], first: PAGE } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  // At that version paid and open together are every status seeded here (succeeded, failed).
  assert.equal(res.body.data.map((d: { id: string }) => d.id), await expected(older.accountId, 0));
});

t('a page led and walked but not filtered is prepared, and the plan PostgreSQL keeps for it reads a page', async () => {
  // Its values are hidden from the planner, so the one plan kept for the statement (after five executions) is the
  // index holding the account (and the status) first; a page filtered otherwise stays unnamed, planned for its values.
  for (const [owner, query] of [[older, {}], [newer, {}], [older, { status: 'failed' }], [newer, { status: 'succeeded' }]] as const) {
    const measured = await page(owner, query);
    assert.ok(measured.statement.name, `the page is sent as a prepared statement: ${JSON.stringify(query)}`);
    const kept = await preparedPlan(app, measured.statement, 'payments');
    assert.ok(kept.genericPlans >= 1, `PostgreSQL planned every execution: ${JSON.stringify(kept)}`);
    assert.not.ok(kept.nodes.some((n) => n.includes('payments_created_at_id_index') || n.startsWith('Sort')), `the kept plan: ${kept.nodes.join(' > ')}`);
    assert.ok(kept.scanned <= 2 * (PAGE + 1), `the kept plan scanned ${kept.scanned} payments for a page of ${PAGE}: ${kept.nodes.join(' > ')}`);
  }
  const since = new Date(Date.now() - 3 * 86_400_000).toISOString();
  const filtered = await pagePlan(app, 'GET', '/payments', { token: older.key, version: headVersion(),
    query: { account_id: older.accountId, first: String(PAGE), created_after: since } }, 'payments');
  assert.not.ok(filtered.statement.name, 'a filtered page is planned for its values');
  assert.equal(ids(filtered), await expected(older.accountId, 0));
});

t.run();
