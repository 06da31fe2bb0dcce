// Lists whose tables grow with an account's history (tracked events, people, apps, recommendations, experiences,
// reviews, api and app logs), on large tables: each table gets LARGE_TABLE_ROWS rows (default 20,000 in the suite; the
// measurement in docs/large-tables.md used 200,000), half of them one account's long history and half spread over many other
// accounts; then each list is read over HTTP for the long-history account and for a small one, the statements the
// server ran are captured, and the page read is run again under EXPLAIN (ANALYZE, BUFFERS). A page must walk an index
// of its table (no sequential scan, no sort of the account's rows: the scan stops after about a page), and the
// long-history account's page must not read more than a few times what the small account's does.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount, makeKey, makeOwner } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { pagePlan, recordStatements, stopRecordingStatements } from '../helpers/page-plans.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const OTHER_ACCOUNTS = 100;
const PAGE = 20;
const t = suite('large tables: lists over a long account history');
let app: TestApp;

interface Owner { key: string; accountId: string }
let big: Owner;
let small: Owner;
let others: string[];
const ids: Record<string, string> = {};

/** `count` rows of `table` made by `select` over generate_series(1, count) as i, in one statement. */
const fill = (sql: string) => app.db.raw(sql);
/** The account of row i: odd rows are the long-history account's, even ones are spread over the others. */
const accountOf = (i: string) => `case when ${i} % 2 = 1 then '${big.accountId}' else (array[${others.map((o) => `'${o}'`).join(',')}])[(${i} / 2) % ${OTHER_ACCOUNTS} + 1] end`;
const ago = (i: string) => `now() - (${i} || ' seconds')::interval`;

recordStatements();
t.before(async () => { try { await setUp(); } catch (e) { console.error(e); throw e; } });
async function setUp() {
  app = await startTestApp();
  const o = await makeOwner(app.db);
  big = { key: o.key, accountId: o.accountId };
  const s = await makeOwner(app.db);
  small = { key: s.key, accountId: s.accountId };
  others = [small.accountId];
  for (let n = 1; n < OTHER_ACCOUNTS; n++) others.push((await makeAccount(app.db, { ownerUserId: o.owner.id })).id as string);
  const bigKey = await makeKey(app.db, { accountId: big.accountId, role: 'admin' });
  big.key = bigKey.secret;

  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await fill(`insert into people (id, account_id, first_seen_at, last_seen_at)
    select 'prsn_large' || i, ${accountOf('i')}, ${ago('i')}, ${ago('i')} from generate_series(1, ${ROWS}) i`);
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await fill(`insert into tracked_events (id, account_id, person_id, event_id, event_name, event_time)
    select 'cevt_large' || i, ${accountOf('i')}, 'prsn_large' || i, 'cevt_large' || i, 'page', ${ago('i')} from generate_series(1, ${ROWS}) i`);
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await fill(`insert into apps (id, account_id, name, app_type, deployment, created_at, updated_at)
    select 'app_large' || i, ${accountOf('i')}, 'App ' || i, 'b2b_app', 'api_integration', ${ago('i')}, ${ago('i')} from generate_series(1, ${ROWS}) i`);
  ids.bigApp = 'app_large1';
  ids.smallApp = 'app_large2';
  await app.db('apps').where({ id: ids.smallApp }).update({ account_id: small.accountId }); // sql-state-write: part of the bulk seeding: one seeded app moves to the small account
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await fill(`insert into economic_intelligence_recommendations (id, account_id, kind, title, summary, status, expected_tool_calls, created_at, updated_at)
    select 'eirec_large' || i, ${accountOf('i')}, 'launch_promo_code', 'T', 'S', 'superseded', '[]', ${ago('i')}, ${ago('i')} from generate_series(1, ${ROWS}) i`);
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await fill(`insert into experiences (id, account_id, name, app_id, created_at, updated_at)
    select 'exp_large' || i, ${accountOf('i')}, 'E' || i, case when ${accountOf('i')} = '${big.accountId}' then '${ids.bigApp}' end, ${ago('i')}, ${ago('i')}
    from generate_series(1, ${ROWS}) i`);
  // Api logs are stored a batch at a time (migrations/490_api_log_batches.ts): 50 consecutive requests a batch, each
  // spanning under a minute.
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await fill(`insert into api_log_batches (id, account_id, first_at, last_at, entries, api_key_ids, user_ids, kinds, operations,
      methods, paths, statuses, durations, versions, request_ids, created_ms)
    select 'alogb_large' || (i / 50) || '_' || account_id, account_id, min(at), max(at), count(*), string_agg('', E'\\x1f'),
      string_agg('', E'\\x1f'), string_agg('api_key', E'\\x1f'), string_agg('listPayments', E'\\x1f'), string_agg('GET', E'\\x1f'),
      string_agg('/payments', E'\\x1f'), string_agg('200', E'\\x1f'), string_agg('3', E'\\x1f'), string_agg('2026-09-06', E'\\x1f'),
      string_agg('req_large' || lpad(i::text, 12, '0'), E'\\x1f' order by i), string_agg(((extract(epoch from at) * 1000)::bigint)::text, E'\\x1f' order by i)
    from (select i, ${accountOf('i')} as account_id, date_trunc('milliseconds', ${ago('i')}) as at from generate_series(1, ${ROWS}) i) s
    group by account_id, i / 50`);
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await fill(`insert into app_logs (id, account_id, app_id, source, level, message, request_id, created_at)
    select 'aplog_large' || i, ${accountOf('i')}, case when i % 2 = 1 then '${ids.bigApp}' else 'app_large' || (2 * (i % 1000) + 2) end,
      'console', 'info', 'line ' || i, 'check_app_build:x', ${ago('i')} from generate_series(1, ${ROWS}) i`);
  // Reviews: the long-history account's ten products each reviewed by a tenth of its reviews' users; the small
  // account's one product by five.
  const users = Math.max(50, Math.round(ROWS / 20));
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await fill(`insert into users (id, username, email) select 'user_large' || u, 'large' || u, 'large' || u || '@example.com' from generate_series(1, ${users}) u`);
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await fill(`insert into products (id, account_id, title) select 'prod_large' || p, '${big.accountId}', 'P' || p from generate_series(1, ${Math.ceil(ROWS / 2 / users)}) p`);
  // sql-state-write: part of the bulk seeding: the small account's one product beside the seeded ones
  await fill(`insert into products (id, account_id, title) values ('prod_largesmall', '${small.accountId}', 'Small')`);
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await fill(`insert into reviews (id, account_id, product_id, user_id, stars, status, paid_for_product, created_at, updated_at)
    select 'rev_large' || i, '${big.accountId}', 'prod_large' || (i / ${users} + 1), 'user_large' || (i % ${users} + 1), 1 + i % 5, 'published', false, ${ago('i')}, ${ago('i')}
    from generate_series(0, ${Math.ceil(ROWS / 2) - 1}) i`);
  // sql-state-write: bulk seeding for a query-plan case: ROWS rows through the API would take far longer than the test
  await fill(`insert into reviews (id, account_id, product_id, user_id, stars, status, paid_for_product)
    select 'rev_largesmall' || u, '${small.accountId}', 'prod_largesmall', 'user_large' || u, 4, 'published', false from generate_series(1, 5) u`);
  await app.db.raw('analyze');
}
t.after(async () => { stopRecordingStatements(); await app.close(); });

/** Runs the list over HTTP, then EXPLAIN ANALYZE of the statement that read `table`'s page. */
async function measure(key: string, path: string, query: Record<string, string>, table: string) {
  const measured = await pagePlan(app, 'GET', path, { token: key, version: headVersion(), query: { first: String(PAGE), ...query } }, table);
  assert.ok(measured.res.body.data.length > 0, `${path} lists something`);
  const { res: _res, ...plan } = measured;
  return plan;
}

const LISTS: [name: string, table: string, path: (o: 'big' | 'small') => string, query: (o: 'big' | 'small') => Record<string, string>][] = [
  ['GET /events', 'tracked_events', () => '/events', (o) => ({ account_id: (o === 'big' ? big : small).accountId })],
  ['GET /people', 'people', () => '/people', (o) => ({ account_id: (o === 'big' ? big : small).accountId })],
  ['GET /apps', 'apps', () => '/apps', (o) => ({ account_id: (o === 'big' ? big : small).accountId })],
  ['GET /apps?order=template_usage', 'apps', () => '/apps', (o) => ({ account_id: (o === 'big' ? big : small).accountId, order: 'template_usage' })],
  ['GET /economic_intelligence', 'economic_intelligence_recommendations', () => '/economic_intelligence', (o) => ({ account_id: (o === 'big' ? big : small).accountId })],
  ['GET /experiences', 'experiences', () => '/experiences', (o) => ({ account_id: (o === 'big' ? big : small).accountId })],
  ['GET /experiences?app_id', 'experiences', () => '/experiences', (o) => (o === 'big' ? { account_id: big.accountId, app_id: ids.bigApp } : { account_id: small.accountId })],
  ['GET /reviews', 'reviews', () => '/reviews', (o) => ({ product_id: o === 'big' ? 'prod_large1' : 'prod_largesmall' })],
  ['GET /api_logs', 'api_log_batches', () => '/api_logs', (o) => ({ account_id: (o === 'big' ? big : small).accountId })],
  ['GET /apps/{id}/logs', 'app_logs', (o) => `/apps/${o === 'big' ? ids.bigApp : ids.smallApp}/logs`, () => ({})],
];

for (const [name, table, path, query] of LISTS) {
  t(`${name}: a page walks an index of ${table} and reads about as much for a long history as for a short one`, async () => {
    const long = await measure(big.key, path('big'), query('big'), table);
    const short = await measure(small.key, path('small'), query('small'), table);
    if (process.env.LARGE_TABLE_REPORT) console.log(JSON.stringify({ name, rows: ROWS, long, short }));
    assert.not.ok(long.nodes.some((n) => n.startsWith(`Seq Scan on ${table}`) || n.startsWith(`Bitmap Heap Scan on ${table}`)), `${name}: ${long.plan}`);
    assert.not.ok(long.sortsTable, `${name} sorts instead of walking an index: ${long.plan}`);
    assert.ok(long.scanned <= 4 * PAGE, `${name} scanned ${long.scanned} rows of ${table} for a page of ${PAGE}: ${long.plan}`);
    assert.ok(long.buffers <= 4 * short.buffers + 40, `${name} read ${long.buffers} buffers for the long history, ${short.buffers} for the short: ${long.plan}`);
  });
}

t.run();
