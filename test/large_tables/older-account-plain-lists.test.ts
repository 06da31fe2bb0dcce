// Lists of one account under other accounts' newer rows: the declared (plain) lists of disputes, dispute alerts and
// resolution center cases, a parent's connected accounts (GET /accounts?parent_account_id) and an app's logs (led by
// the app). Their tables hold an index on (created_at, id) for the platform's lists across accounts (app_logs one on
// created_at, for the purge) besides one on (account_id, created_at, id) (the parent's, the app's). Written as
// `account_id = value`, PostgreSQL may walk the first from the newest row and test every other account's; led by the
// account (runtime/ownership.ts ownedPage, which reads the database's indexes: runtime/index-catalog.ts), a page
// reads about a page of the account's own index whatever the statistics say.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { pagePlan, planWithout, recordStatements, stopRecordingStatements } from '../helpers/page-plans.js';
import { makeApp } from '../apps/app-fixtures.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const PAGE = 20;
const t = suite('large tables: plain lists of an account under other accounts\' newer rows');
let app: TestApp;
let older: Awaited<ReturnType<typeof makeOwner>>;
let newer: Awaited<ReturnType<typeof makeOwner>>;
let olderApp: { id: string };

recordStatements();
t.before(async () => {
  app = await startTestApp();
  older = await makeOwner(app.db);
  newer = await makeOwner(app.db);
  const seed = async (owner: typeof older, prefix: string, count: number, start: string, step: string) => {
    await app.db.raw( // sql-state-write: bulk seeding for a query-plan case: ROWS disputes (each on its own payment) through the sandbox card network would take far longer than the test
      `insert into payments (id, account_id, user_id, status, billing_reason, currency, subtotal, total, usd_total, created_at, updated_at)
      select 'pay_${prefix}' || lpad(i::text, 8, '0'), ?, ?, 'succeeded', 'one_time', 'usd', 1000, 1000, 1000, ${start} - i * interval '${step}', now()
      from generate_series(1, ?) i`, [owner.accountId, owner.owner.id, count]);
    await app.db.raw( // sql-state-write: as above
      `insert into disputes (id, account_id, payment_id, status, reason, currency, amount, fee, response_due_at, created_at, updated_at)
      select 'dspt_${prefix}' || lpad(i::text, 8, '0'), ?, 'pay_${prefix}' || lpad(i::text, 8, '0'), 'needs_response', 'fraudulent', 'usd', 1000, 1500,
        now() + interval '7 days', ${start} - i * interval '${step}', now()
      from generate_series(1, ?) i`, [owner.accountId, count]);
    await app.db.raw( // sql-state-write: as above
      `insert into dispute_alerts (id, account_id, payment_id, type, outcome, currency, amount, fee, fee_charged, reported_at, created_at, updated_at)
      select 'dspa_${prefix}' || lpad(i::text, 8, '0'), ?, 'pay_${prefix}' || lpad(i::text, 8, '0'), 'dispute_alert', 'pending', 'usd', 1000, 0, false,
        ${start} - i * interval '${step}', ${start} - i * interval '${step}', now()
      from generate_series(1, ?) i`, [owner.accountId, count]);
    await app.db.raw( // sql-state-write: as above
      `insert into resolution_center_cases (id, account_id, payment_id, reason, status, currency, amount, created_at, updated_at)
      select 'rcc_${prefix}' || lpad(i::text, 8, '0'), ?, 'pay_${prefix}' || lpad(i::text, 8, '0'), 'item_not_received', 'awaiting_merchant', 'usd', 1000,
        ${start} - i * interval '${step}', now()
      from generate_series(1, ?) i`, [owner.accountId, count]);
  };
  const children = (parent: string, prefix: string, count: number, start: string, step: string) => app.db.raw( // sql-state-write: as above, connected accounts
    `insert into accounts (id, parent_id, title, route, client_id, created_at, updated_at)
    select 'biz_${prefix}' || lpad(i::text, 8, '0'), ?, 'Shop ' || i, '${prefix}-' || i, 'client_${prefix}' || i, ${start} - i * interval '${step}', now()
    from generate_series(1, ?) i`, [parent, count]);
  await children(older.accountId, 'kidold', ROWS, "now() - interval '1 day'", '2 minutes');
  await children(newer.accountId, 'kidnew', ROWS, "now() - interval '1 day' - interval '1 minute'", '2 minutes');
  await children(newer.accountId, 'kidburst', ROWS / 20, 'now()', '1 second');
  await app.db.raw('analyze accounts');
  // An app's logs, under a second app's newer ones (app_logs has an index on created_at alone, for the purge).
  olderApp = await makeApp(app, older);
  const newerApp = await makeApp(app, newer);
  const logs = (appId: string, accountId: string, prefix: string, count: number, start: string, step: string) => app.db.raw( // sql-state-write: as above, log lines
    `insert into app_logs (id, account_id, app_id, source, level, message, request_id, created_at)
    select 'aplog_${prefix}' || lpad(i::text, 8, '0'), ?, ?, 'console', 'info', 'line ' || i, 'req_' || i, ${start} - i * interval '${step}'
    from generate_series(1, ?) i`, [accountId, appId, count]);
  await logs(olderApp.id, older.accountId, 'old', ROWS, "now() - interval '1 day'", '2 minutes');
  await logs(newerApp.id, newer.accountId, 'new', ROWS, "now() - interval '1 day' - interval '1 minute'", '2 minutes');
  await logs(newerApp.id, newer.accountId, 'burst', ROWS / 20, 'now()', '1 second');
  await app.db.raw('analyze app_logs');
  await seed(older, 'old', ROWS, "now() - interval '1 day'", '2 minutes');
  await seed(newer, 'new', ROWS, "now() - interval '1 day' - interval '1 minute'", '2 minutes');
  await seed(newer, 'burst', ROWS / 20, 'now()', '1 second');
  await app.db.raw('analyze disputes');
  await app.db.raw('analyze dispute_alerts');
  await app.db.raw('analyze resolution_center_cases');
});
t.after(async () => { stopRecordingStatements(); await app.close(); });

for (const { table, path } of [{ table: 'disputes', path: '/disputes' }, { table: 'dispute_alerts', path: '/dispute_alerts' },
  { table: 'resolution_center_cases', path: '/resolution_center_cases' }]) {
  t(`${path}: the older account's pages read about a page of its own index`, async () => {
    const expected = async (offset: number) => (await app.db(table).where({ account_id: older.accountId })
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).offset(offset).limit(PAGE).select('id')).map((r: { id: string }) => r.id);
    let after: string | undefined;
    for (const offset of [0, PAGE]) {
      const measured = await pagePlan(app, 'GET', path, { token: older.key, version: headVersion(),
        query: { account_id: older.accountId, first: String(PAGE), ...(after ? { after } : {}) } }, table);
      if (process.env.LARGE_TABLE_REPORT) console.log(JSON.stringify({ path, plan: measured.plan, scanned: measured.scanned, buffers: measured.buffers }));
      assert.equal(measured.res.body.data.map((d: { id: string }) => d.id), await expected(offset));
      assert.not.ok(measured.nodes.some((n) => n.includes(`${table}_created_at_id_index`)), `walks the index across accounts: ${measured.plan}`);
      assert.ok(measured.scanned <= 2 * (PAGE + 1), `scanned ${measured.scanned} rows for a page of ${PAGE}: ${measured.plan}`);
      // Whatever the statistics: without the index holding the account first, only a sort gives the page's order.
      const without = await planWithout(app, measured.statement, [`${table}_account_id_created_at_id_index`]);
      assert.not.ok(without.some((n) => n.includes(`${table}_created_at_id_index`)), `the index across accounts gives the order: ${without.join(' > ')}`);
      after = measured.res.body.page_info.end_cursor;
    }
  });
}

t('/accounts?parent_account_id: the older parent\'s connected accounts read about a page of the parent\'s index', async () => {
  const measured = await pagePlan(app, 'GET', '/accounts', { token: older.key, version: headVersion(),
    query: { parent_account_id: older.accountId, first: String(PAGE) } }, 'accounts');
  if (process.env.LARGE_TABLE_REPORT) console.log(JSON.stringify({ path: '/accounts', plan: measured.plan, scanned: measured.scanned, buffers: measured.buffers }));
  const expected = (await app.db('accounts').where({ parent_id: older.accountId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(PAGE).select('id')).map((r: { id: string }) => r.id);
  assert.equal(measured.res.body.data.map((d: { id: string }) => d.id), expected);
  assert.not.ok(measured.nodes.some((n) => n.includes('accounts_created_at_id_index')), `walks the index across parents: ${measured.plan}`);
  // The page's rows, and per row one lookup by key of the accounts its view joins (its parent among them).
  assert.ok(measured.scanned <= 3 * (PAGE + 1), `scanned ${measured.scanned} accounts for a page of ${PAGE}: ${measured.plan}`);
  const without = await planWithout(app, measured.statement, ['accounts_parent_id_created_at_id_index']);
  assert.not.ok(without.some((n) => n.includes('accounts_created_at_id_index')), `the index across parents gives the order: ${without.join(' > ')}`);
});

t('/apps/{id}/logs: the older app\'s logs read about a page of the app\'s index', async () => {
  const measured = await pagePlan(app, 'GET', `/apps/${olderApp.id}/logs`, { token: older.key, version: headVersion(),
    query: { first: String(PAGE) } }, 'app_logs');
  if (process.env.LARGE_TABLE_REPORT) console.log(JSON.stringify({ path: '/apps/{id}/logs', plan: measured.plan, scanned: measured.scanned, buffers: measured.buffers }));
  const expected = (await app.db('app_logs').where({ app_id: olderApp.id })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(PAGE).select('id')).map((r: { id: string }) => r.id);
  assert.equal(measured.res.body.data.map((d: { id: string }) => d.id), expected);
  assert.ok(measured.scanned <= 2 * (PAGE + 1), `scanned ${measured.scanned} log lines for a page of ${PAGE}: ${measured.plan}`);
  const without = await planWithout(app, measured.statement, ['app_logs_app_id_created_at_id_index']);
  assert.not.ok(without.some((n) => n.includes('app_logs_created_at_index')), `the purge's index gives the order: ${without.join(' > ')}`);
});

t('a led page bounded by dates still reads about a page', async () => {
  for (const query of [{ created_after: new Date(Date.now() - 20 * 86_400_000).toISOString() },
    { created_before: new Date(Date.now() - 10 * 86_400_000).toISOString() },
    { created_after: new Date(Date.now() - 20 * 86_400_000).toISOString(), created_before: new Date(Date.now() - 10 * 86_400_000).toISOString() }]) {
    const measured = await pagePlan(app, 'GET', '/disputes', { token: older.key, version: headVersion(),
      query: { account_id: older.accountId, first: String(PAGE), ...query } }, 'disputes');
    if (process.env.LARGE_TABLE_REPORT) console.log(JSON.stringify({ query, plan: measured.plan, scanned: measured.scanned, buffers: measured.buffers }));
    assert.is(measured.res.body.data.length, PAGE);
    assert.not.ok(measured.sortsUnbounded, `sorts every dispute in the bounds: ${measured.plan}`);
    assert.ok(measured.scanned <= 2 * (PAGE + 1), `scanned ${measured.scanned} disputes for a page of ${PAGE}: ${measured.plan}`);
  }
});

t('a filter still narrows the led page', async () => {
  const res = await app.request('GET', '/disputes', { token: older.key, version: headVersion(),
    query: { account_id: older.accountId, first: String(PAGE), payment_id: 'pay_old00000007' } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.map((d: { id: string }) => d.id), ['dspt_old00000007']);
});

t.run();
