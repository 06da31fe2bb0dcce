// GET /accounts?order=volume on a large accounts table: lifetime volume is a column kept by the payments
// that move money (handlers/accounts/lifetime-volume.ts), so ordering and bounding by it is an index walk, not a sum
// over payments nor a sort of every account. A platform with LARGE_TABLE_ROWS connected accounts and as many accounts
// of other platforms; its list by volume (whole, bounded, paged) must read about a page of an index in volume order,
// checked against the order SQL gives, and so must a small platform's among them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { pagePlan, recordStatements, stopRecordingStatements, type PagePlan } from '../helpers/page-plans.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const PAGE = 20;
const t = suite('large tables: accounts listed by lifetime volume');
let app: TestApp;
let big: Awaited<ReturnType<typeof makeOwner>>;
let small: Awaited<ReturnType<typeof makeOwner>>;

recordStatements();
t.before(async () => {
  app = await startTestApp();
  big = await makeOwner(app.db);
  small = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  // Volumes in the millions of dollars spread over the range, many ties (i % 5000): reaching them by payments would
  // take ROWS x several payments; the column is what the payments keep, so it is seeded as they would leave it.
  const seed = (parent: string, prefix: string, count: number) => app.db.raw( // sql-state-write: bulk seed of a large accounts table, volumes as payments would leave them
    `insert into accounts (id, parent_id, title, route, client_id, lifetime_volume_usd, created_at, updated_at)
    select 'biz_${prefix}' || lpad(i::text, 8, '0'), ?, 'Shop ' || i, '${prefix}-' || i, 'client_${prefix}' || i, (i % 5000) * 100037,
      now() - i * interval '1 second', now()
    from generate_series(1, ?) i`, [parent, count]);
  await seed(big.accountId, 'volbig', ROWS);
  await seed(other.accountId, 'volother', ROWS);
  await seed(small.accountId, 'volsmall', 30);
  await app.db.raw('analyze accounts');
});
t.after(async () => { stopRecordingStatements(); await app.close(); });

/** The ids SQL lists: the parent and its connected accounts within the bounds (cents), by volume then id, newest first. */
async function expected(parent: string, offset: number, min = 0, max = Number.MAX_SAFE_INTEGER): Promise<string[]> {
  const rows = await app.db('accounts').where((w) => w.where('id', parent).orWhere('parent_id', parent))
    .whereBetween('lifetime_volume_usd', [min, max])
    .orderBy([{ column: 'lifetime_volume_usd', order: 'desc' }, { column: 'id', order: 'desc' }]).offset(offset).limit(PAGE).select('id');
  return rows.map((r: { id: string }) => r.id);
}

/** A page by volume, read over HTTP and explained; `walked`: it must come from an index in volume order (no sort). */
async function page(owner: { key: string }, query: Record<string, string>, walked = true): Promise<PagePlan> {
  const measured = await pagePlan(app, 'GET', '/accounts', { token: owner.key, version: headVersion(), query: { order: 'volume', first: String(PAGE), ...query } }, 'accounts');
  if (process.env.LARGE_TABLE_REPORT) console.log(JSON.stringify({ query, plan: measured.plan, scanned: measured.scanned, buffers: measured.buffers }));
  assert.not.ok(measured.nodes.some((n) => n.startsWith('Seq Scan on accounts')), measured.plan);
  if (walked) {
    assert.not.ok(measured.sortsUnbounded, `sorts every matching account: ${measured.plan}`);
    assert.ok(measured.nodes.some((n) => /^Index (Only )?Scan( Backward)? on accounts using (accounts_lifetime_volume_usd_id_index|accounts_parent_volume)/.test(n)), `walks a volume index: ${measured.plan}`);
  }
  return measured;
}

const ids = (p: PagePlan) => p.res.body.data.map((d: { id: string }) => d.id);

t('a platform with many connected accounts pages by volume along an index, forward, bounded and under parent_account_id', async () => {
  const first = await page(big, {});
  assert.equal(ids(first), await expected(big.accountId, 0));
  const second = await page(big, { after: first.res.body.page_info.end_cursor });
  assert.equal(ids(second), await expected(big.accountId, PAGE));
  const scoped = await page(big, { parent_account_id: big.accountId });
  assert.equal(ids(scoped), (await expected(big.accountId, 0)).filter((id) => id !== big.accountId));
  // Bounded: 1,000.00 to 2,000.00 dollars (cents 100000..200000).
  const bounded = await page(big, { parent_account_id: big.accountId, volume_min: '1000', volume_max: '2000' });
  assert.equal(ids(bounded), (await expected(big.accountId, 0, 100_000, 200_000)).filter((id) => id !== big.accountId));
  for (const p of [first, second, scoped, bounded]) assert.ok(p.scanned <= 4 * (PAGE + 1) + 2, `scanned ${p.scanned} accounts for a page of ${PAGE}: ${p.plan}`);
});

t('a small platform among them reads its own accounts, not the large table in volume order', async () => {
  // Its 30 accounts may be read and sorted (that is its size, not the table's); never a walk of everyone's volumes.
  const queries: Record<string, string>[] = [{ parent_account_id: small.accountId }, {}, { parent_account_id: small.accountId, volume_min: '10000' }];
  for (const query of queries) {
    const res = await page(small, query, false);
    const all = await expected(small.accountId, 0, Number(query.volume_min ?? 0) * 100);
    assert.equal(ids(res), query.parent_account_id ? all.filter((id) => id !== small.accountId) : all);
    assert.ok(res.scanned <= 4 * 31, `scanned ${res.scanned} accounts: ${res.plan}`);
  }
});

t.run();
