// A list filtered by status, when the newest rows are of another status: LARGE_TABLE_ROWS older rows matching the
// filter, the statistics gathered then, and as many newer rows that do not match (a burst of pending payments, of
// domains awaiting verification) added after, so the planner still believes nearly every row matches, as it does
// until autovacuum next analyzes the table. Written as `status = value`, the page walked the (created_at, id) index
// from the newest row and skipped every non-matching one (40 ms at 64,000); walked by status (runtime/pagination.ts,
// Walk), it reads about a page of the (account_id, status, created_at, id) index, whatever the statistics say. Each
// list is read over HTTP, checked against the rows SQL lists, paged on, and its page statement explained.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { pagePlan, recordStatements, stopRecordingStatements, type PagePlan } from '../helpers/page-plans.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const PAGE = 20;
const t = suite('large tables: lists filtered by status under newer rows of another status');
let app: TestApp;
let owner: Awaited<ReturnType<typeof makeOwner>>;

recordStatements();
t.before(async () => {
  app = await startTestApp();
  owner = await makeOwner(app.db);
  const acct = owner.accountId;
  // Older payments: mostly succeeded, every tenth failed, every tenth refunded; older domains: all verified.
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await app.db.raw(`insert into payments (id, account_id, user_id, status, billing_reason, currency, subtotal, total, usd_total, created_at, updated_at)
    select 'pay_flt' || lpad(i::text, 8, '0'), ?, ?, case i % 10 when 0 then 'failed' when 5 then 'refunded' else 'succeeded' end,
      'one_time', 'usd', 1000, 1000, 1000, now() - interval '1 day' - i * interval '1 second', now()
    from generate_series(1, ?) i`, [acct, owner.owner.id, ROWS]);
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await app.db.raw(`insert into payment_method_domains (id, account_id, domain, status, txt_record_name, verification_token, verified_at, created_at, updated_at)
    select 'pmd_flt' || lpad(i::text, 8, '0'), ?, 'shop' || i || '.example.com', 'verified', '_whop.shop' || i, 'tok' || i,
      now(), now() - interval '1 day' - i * interval '1 second', now()
    from generate_series(1, ?) i`, [acct, ROWS]);
  await app.db.raw('analyze payments, payment_method_domains');
  // Then as many newer rows of another status, the statistics left as they were.
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await app.db.raw(`insert into payments (id, account_id, user_id, status, billing_reason, currency, subtotal, total, usd_total, created_at, updated_at)
    select 'pay_fltnew' || lpad(i::text, 8, '0'), ?, ?, 'processing', 'one_time', 'usd', 1000, 1000, 1000,
      now() - i * interval '1 millisecond', now()
    from generate_series(1, ?) i`, [acct, owner.owner.id, ROWS]);
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await app.db.raw(`insert into payment_method_domains (id, account_id, domain, status, txt_record_name, verification_token, created_at, updated_at)
    select 'pmd_fltnew' || lpad(i::text, 8, '0'), ?, 'new' || i || '.example.com', 'pending', '_whop.new' || i, 'tok' || i,
      now() - i * interval '1 millisecond', now()
    from generate_series(1, ?) i`, [acct, ROWS]);
});
t.after(async () => { stopRecordingStatements(); await app.close(); });

/** The ids SQL lists for the account's rows of `statuses`, newest first, from `offset`. */
async function expected(table: string, statuses: string[], offset: number): Promise<string[]> {
  const rows = await app.db(table).where({ account_id: owner.accountId }).whereIn('status', statuses)
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).offset(offset).limit(PAGE).select('id');
  return rows.map((r: { id: string }) => r.id);
}

/** A page read over HTTP, with its statement's plan, bounded to about a page of index per status walked. */
async function page(table: string, path: string, version: string, query: Record<string, string | string[]>, walked: number): Promise<PagePlan> {
  const measured = await pagePlan(app, 'GET', path, { token: owner.key, version, query }, table);
  if (process.env.LARGE_TABLE_REPORT) console.log(JSON.stringify({ path, query, plan: measured.plan, scanned: measured.scanned, buffers: measured.buffers }));
  assert.not.ok(measured.nodes.some((n) => n.startsWith(`Seq Scan on ${table}`) || n.startsWith(`Bitmap Heap Scan on ${table}`)), measured.plan);
  assert.not.ok(measured.sortsUnbounded, `sorts every matching row: ${measured.plan}`);
  assert.ok(measured.scanned <= walked * 2 * (PAGE + 1), `scanned ${measured.scanned} rows of ${table} for a page of ${PAGE}: ${measured.plan}`);
  return measured;
}

const ids = (p: PagePlan) => p.res.body.data.map((d: { id: string }) => d.id);

t('GET /payments?status=succeeded reads a page of succeeded payments, not the newer processing ones', async () => {
  const first = await page('payments', '/payments', headVersion(), { account_id: owner.accountId, status: 'succeeded', first: String(PAGE) }, 1);
  assert.equal(ids(first), await expected('payments', ['succeeded'], 0));
  const second = await page('payments', '/payments', headVersion(),
    { account_id: owner.accountId, status: 'succeeded', first: String(PAGE), after: first.res.body.page_info.end_cursor }, 1);
  assert.equal(ids(second), await expected('payments', ['succeeded'], PAGE));
  // The newest status, which the statistics say no row has, is walked the same way.
  const processing = await page('payments', '/payments', headVersion(), { account_id: owner.accountId, status: 'processing', first: String(PAGE) }, 1);
  assert.equal(ids(processing), await expected('payments', ['processing'], 0));
});

t('GET /payments?statuses[]=paid at 2026-07-20 merges its three statuses\' pages, forward and back', async () => {
  const paid = ['succeeded', 'refunded', 'partially_refunded'];
  const q = { company_id: owner.accountId, statuses: ['paid'] };
  const first = await page('payments', '/payments', '2026-07-20', { ...q, first: String(PAGE) }, 3);
  assert.equal(ids(first), await expected('payments', paid, 0));
  assert.ok(first.res.body.data.some((d: { id: string }) => Number(d.id.slice(-2)) % 10 === 5), 'refunded payments are among them');
  const second = await page('payments', '/payments', '2026-07-20', { ...q, first: String(PAGE), after: first.res.body.page_info.end_cursor }, 3);
  assert.equal(ids(second), await expected('payments', paid, PAGE));
  assert.ok(second.res.body.page_info.has_next_page && second.res.body.page_info.has_previous_page);
  const back = await page('payments', '/payments', '2026-07-20', { ...q, last: String(PAGE), before: second.res.body.page_info.start_cursor }, 3);
  assert.equal(ids(back), ids(first));
  // Two statuses of which one is open (requires_action, failed) and one paid: the union of both walks.
  const mixed = await page('payments', '/payments', '2026-07-20', { company_id: owner.accountId, statuses: ['open', 'paid'], first: String(PAGE) }, 5);
  assert.equal(ids(mixed), await expected('payments', ['requires_action', 'failed', ...paid], 0));
});

t('GET /payments with a status and statuses allowing nothing together is an empty page', async () => {
  const res = await app.request('GET', '/payments', { token: owner.key, version: '2026-07-20', query: { company_id: owner.accountId, statuses: ['uncollectible'], first: PAGE } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data, []);
  assert.is(res.body.page_info.has_next_page, false);
});

t('GET /payment_method_domains?status=verified (a keyed filter) reads a page of verified domains', async () => {
  const first = await page('payment_method_domains', '/payment_method_domains', headVersion(), { account_id: owner.accountId, status: 'verified', first: String(PAGE) }, 1);
  assert.equal(ids(first), await expected('payment_method_domains', ['verified'], 0));
  const second = await page('payment_method_domains', '/payment_method_domains', headVersion(),
    { account_id: owner.accountId, status: 'verified', first: String(PAGE), after: first.res.body.page_info.end_cursor }, 1);
  assert.equal(ids(second), await expected('payment_method_domains', ['verified'], PAGE));
});

t.run();
