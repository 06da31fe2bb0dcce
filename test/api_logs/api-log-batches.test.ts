// GET /api_logs over logs stored a batch at a time (migrations/490_api_log_batches.ts): batches whose requests
// overlap in time, ties to the millisecond across batches, and filters that match rows scattered over many batches.
// Every page sequence, in both directions and paged back with last/before, equals the same rows read from the
// api_logs view and sorted by the database.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeAccount, makeKey, makeOwner } from '../helpers/fixtures.js';

const t = suite('api logs read from batches');
let app: TestApp;
let owner: Awaited<ReturnType<typeof makeOwner>>;
let otherKey: string;
/** the connected account whose logs are listed: the listing's own requests are logged on the platform account */
let listed: string;
const BASE = Date.parse('2026-11-20T10:00:00.000Z');
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A seeded generator (mulberry32), so that a failure replays. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

t.before(async () => {
  app = await startTestApp();
  owner = await makeOwner(app.db);
  listed = (await makeAccount(app.db, { title: 'Connected', parentId: owner.accountId })).id as string;
  otherKey = (await makeKey(app.db, { accountId: listed, role: 'admin' })).id;
  const next = random(20261128);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  // 60 batches, a batch's last request 0-40 s after the previous batch's, its requests within the minute before it:
  // neighbouring batches overlap. Some requests share a millisecond with another batch's.
  let last = BASE;
  let n = 0;
  const shared: number[] = [];
  for (let b = 0; b < 60; b++) {
    last += Math.floor(next() * 40_000);
    const entries = 1 + Math.floor(next() * 25);
    const times = Array.from({ length: entries }, () => (shared.length && next() < 0.1 ? pick(shared) : last - Math.floor(next() * 59_000)))
      .filter((ms) => ms <= last && ms > last - 60_000);
    times.push(last);
    shared.push(...times.slice(0, 2));
    // Request ids as the server makes them (base64url: mixed case, '-' and '_'), so that ties order as the bytes do.
    const rows = times.map((ms) => ({ ms, request: `req_${Array.from({ length: 16 }, () => pick([...B64URL])).join('')}${n++}`,
      key: next() < 0.2 ? otherKey : owner.keyId, status: pick([200, 200, 200, 201, 404, 500]), operation: pick(['retrievePayment', 'listPayments']) }));
    const joined = (values: (string | number | null)[]) => values.map((v) => v ?? '').join('\x1f');
    // sql-state-write: batches with chosen instants and same-millisecond ties that real requests cannot be made to produce
    await app.db.raw(`insert into api_log_batches (id, account_id, first_at, last_at, entries, api_key_ids, user_ids, kinds,
        operations, methods, paths, statuses, durations, versions, request_ids, created_ms)
      values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      `alogb_test${String(b).padStart(3, '0')}`, listed, new Date(Math.min(...times)).toISOString(), new Date(last).toISOString(), rows.length,
      joined(rows.map((r) => r.key)), joined(rows.map(() => null)), joined(rows.map(() => 'api_key')), joined(rows.map((r) => r.operation)),
      joined(rows.map(() => 'GET')), joined(rows.map((r) => (r.operation === 'listPayments' ? '/payments' : '/payments/{id}'))),
      joined(rows.map((r) => r.status)), joined(rows.map(() => 3)), joined(rows.map(() => '2026-09-06')), joined(rows.map((r) => r.request)),
      joined(rows.map((r) => r.ms)),
    ]);
  }
});
t.after(async () => { await app.close(); });

type Filters = Record<string, string | number>;

/** The rows the list should show, from the view, ordered by the database. */
async function expected(filters: Filters, direction: 'asc' | 'desc'): Promise<string[]> {
  const q = app.db('api_logs').where({ account_id: listed }).orderBy([{ column: 'created_at', order: direction }, { column: 'id', order: direction }]);
  for (const [name, value] of Object.entries(filters)) {
    if (name === 'created_after') q.where('created_at', '>', value);
    else if (name === 'created_before') q.where('created_at', '<', value);
    else q.where(name, value);
  }
  return (await q.pluck('id')) as string[];
}

async function page(query: Filters) {
  const res = await app.request('GET', '/api_logs', { token: owner.key, query: { account_id: listed, ...query } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body as { data: { id: string; created_at: string; api_key_id: string; status: number }[]; page_info: any };
}

const CASES: [string, Filters][] = [
  ['every request', {}],
  ['one key', { api_key_id: '' }],
  ['a rare status', { status: 500 }],
  ['an outcome', { outcome: 'client_error' }],
  ['an operation and a window', { operation: 'listPayments', created_after: new Date(BASE + 5 * 60_000).toISOString(), created_before: new Date(BASE + 20 * 60_000).toISOString() }],
];

for (const [name, filters] of CASES) {
  for (const direction of ['desc', 'asc'] as const) {
    t(`${name}, ${direction}: every page in order, then back with last/before, as the database sorts them`, async () => {
      const query = { ...filters, ...(filters.api_key_id === '' ? { api_key_id: otherKey } : {}) };
      const want = await expected(query, direction);
      assert.ok(want.length > 0, 'the case matches something');
      for (const size of [7, 50]) {
        const seen: string[] = [];
        const starts: string[] = [];
        let after: string | undefined;
        for (let i = 0; i < 200; i++) {
          const p = await page({ ...query, direction, first: size, ...(after ? { after } : {}) });
          seen.push(...p.data.map((l) => l.id));
          starts.push(p.page_info.start_cursor);
          if (!p.page_info.has_next_page) break;
          after = p.page_info.end_cursor;
        }
        assert.equal(seen, want, `first=${size}`);
        // Back from the last page: each page before it, by last/before, is the one met going forwards.
        if (starts.length > 1) {
          const back = await page({ ...query, direction, last: size, before: starts[starts.length - 1] });
          assert.equal(back.data.map((l) => l.id), want.slice((starts.length - 2) * size, (starts.length - 1) * size));
          assert.ok(back.page_info.has_previous_page === starts.length > 2);
        }
      }
    });
  }
}

t('filters hold on every row listed', async () => {
  const p = await page({ api_key_id: otherKey, status: 404, first: 100 });
  assert.ok(p.data.every((l) => l.api_key_id === otherKey && l.status === 404));
  assert.equal(p.data.map((l) => l.id), await expected({ api_key_id: otherKey, status: 404 }, 'desc'));
});

t.run();
