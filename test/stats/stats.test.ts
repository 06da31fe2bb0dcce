// Metric time series over real data: a known mix of payments, a refund, a dispute and memberships gives exact
// numbers; periods follow the time zone (a quarter-hour offset included); every rule and error; the older path.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey } from '../helpers/fixtures.js';
import { makeVariant, pay, settleRefunds, VERSION } from '../payments/payment-fixtures.js';
import { NETWORK_CARDS, PAID, NET, DISPUTE_FEE, paidWith, seller } from '../disputes/dispute-fixtures.js';
import { newId } from '../../runtime/ids.js';
import { compactTotals } from '../../handlers/shared/compact-totals.js';

const t = suite('stats');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const OLD = '2026-07-20'; // before entry 10 (2026-08-28)

async function series(key: string, metric: string, query: Record<string, string>, version = VERSION, path = `/stats/time_series/${metric}`) {
  return app.request('GET', path, { token: key, version, query });
}

/** The UTC day `n` days after `day`. */
const dayAfter = (day: string, n = 1) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The day (UTC) on the database's clock, which stamps what the series count. */
const databaseDay = async (): Promise<string> =>
  (await app.db.raw("select to_char(now() at time zone 'UTC', 'YYYY-MM-DD') as day")).rows[0].day;

/**
 * The days a test's events fell on: from the database's day before the first to its day after the last. One day,
 * unless the run crossed midnight UTC meanwhile (then the events are spread over both, and only their sums are known).
 */
interface EventDays { first: string; last: string; all: string[] }
async function eventDays(first: string): Promise<EventDays> {
  const last = await databaseDay();
  const all = [first];
  while (all[all.length - 1] < last) all.push(dayAfter(all[all.length - 1]!));
  return { first, last, all };
}

/** [value, count] of the day before the events, then of the events' days: summed, or the level at their end. */
async function eventsValue(key: string, accountId: string, metric: string, days: EventDays) {
  const res = await series(key, metric, { account_id: accountId, from: dayAfter(days.first, -1), to: days.last, time_zone: 'UTC' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const points: { value: number; count: number }[] = res.body.data.points;
  assert.is(points.length, 1 + days.all.length);
  const [before, ...during] = points.map((p) => [p.value, p.count]);
  return [before, metric === 'active_memberships' ? during[during.length - 1] : sum(during)];
}

const sum = (pairs: number[][]) => pairs.reduce(([v, c], [pv, pc]) => [v! + pv!, c! + pc!], [0, 0]);

t('a known mix of payments, a refund, a dispute and memberships gives exact numbers', async () => {
  const firstDay = await databaseDay();
  const s = await seller(app);
  const variant = await makeVariant(app, s.accountId, { price: PAID });
  await pay(app, s, { plan_id: variant.id });
  const second = await pay(app, s, { plan_id: variant.id });
  const plain = await pay(app, s, { amount: PAID, currency: 'usd' });
  await paidWith(app, s, NETWORK_CARDS.chargeback); // a dispute opens: its amount and fee leave
  const refund = await app.request('POST', `/payments/${plain.id}/refund`, { token: s.key, version: VERSION, body: { partial_amount: 2_500 } });
  assert.is(refund.status, 200, JSON.stringify(refund.body));
  await settleRefunds(app, plain.id);
  const membership = await app.db('payments').where({ id: second.id }).first('membership_id');
  const cancel = await app.request('POST', `/memberships/${membership.membership_id}/cancel`, { token: s.key, version: VERSION, body: {} });
  assert.is(cancel.status, 200, JSON.stringify(cancel.body));
  const days = await eventDays(firstDay);

  assert.equal(await eventsValue(s.key, s.accountId, 'gross_revenue', days), [[0, 0], [4 * PAID, 4]]);
  assert.equal(await eventsValue(s.key, s.accountId, 'net_revenue', days), [[0, 0], [4 * NET - 2_500 - PAID - DISPUTE_FEE, 4]]);
  assert.equal(await eventsValue(s.key, s.accountId, 'refunds', days), [[0, 0], [2_500, 1]]);
  assert.equal(await eventsValue(s.key, s.accountId, 'disputes', days), [[0, 0], [PAID, 1]]);
  assert.equal(await eventsValue(s.key, s.accountId, 'new_members', days), [[0, 0], [4, 4]]);
  assert.equal(await eventsValue(s.key, s.accountId, 'churned_members', days), [[0, 0], [1, 1]]);
  assert.equal(await eventsValue(s.key, s.accountId, 'active_memberships', days), [[0, 0], [1, 1]]);

  // A window ending before the events still ends at the day before's level; a later one carries the level on.
  const later = await series(s.key, 'active_memberships', { account_id: s.accountId, from: days.last, to: dayAfter(days.last, 2), time_zone: 'UTC' });
  assert.equal(later.body.data.points.map((p: { value: number }) => p.value), [1, 1, 1]);
  await compactTotals(app.db);
  assert.equal(await eventsValue(s.key, s.accountId, 'active_memberships', days), [[0, 0], [1, 1]], 'the level, compacted');
  assert.is(Number((await app.db('stat_levels').where({ account_id: s.accountId }).count({ n: '*' }))[0].n), 1);

  const body = (await series(s.key, 'gross_revenue', { account_id: s.accountId, from: days.first, to: days.last, time_zone: 'UTC' })).body;
  const { points, ...window } = body.data;
  assert.equal(window, {
    metric: 'gross_revenue', unit: 'currency', currency: 'usd', interval: 'day', time_zone: 'UTC',
    from: `${days.first}T00:00:00.000Z`, to: `${dayAfter(days.last)}T00:00:00.000Z`,
  });
  assert.equal(points.map((p: { timestamp: string }) => p.timestamp), days.all.map((d) => `${d}T00:00:00.000Z`));
  assert.equal(sum(points.map((p: { value: number; count: number }) => [p.value, p.count])), [4 * PAID, 4]);
  // Another currency holds nothing.
  const eur = await series(s.key, 'gross_revenue', { account_id: s.accountId, from: days.last, to: days.last, currency: 'eur', time_zone: 'UTC' });
  assert.equal([eur.body.data.currency, eur.body.data.points[0].value], ['eur', 0]);
});

/** A payment collected at `at`, written as the seed writes them (the insert trigger counts it). */
async function collectedAt(accountId: string, at: string, total: number) {
  await app.db('payments').insert({ // sql-state-write: payments collected on stated past days for the series: a sandbox clock never goes back in time
    id: newId('pay_'), account_id: accountId, status: 'succeeded', billing_reason: 'one_time', currency: 'usd',
    subtotal: total, total, usd_total: total, fee_amount: 100, settlement_time_at: at, created_at: at, updated_at: at,
  });
}

t('periods follow the time zone: the account\'s by default, New York, and a quarter-hour offset', async () => {
  const s = await seller(app);
  await collectedAt(s.accountId, '2026-03-01T03:30:00Z', 1_000); // 22:30 on 28 February in New York
  await collectedAt(s.accountId, '2026-03-01T18:20:00Z', 2_000); // 00:05 on 2 March in Kathmandu (+05:45)
  const days = async (q: Record<string, string>) => {
    const res = await series(s.key, 'gross_revenue', { account_id: s.accountId, from: '2026-02-28', to: '2026-03-02', ...q });
    assert.is(res.status, 200, JSON.stringify(res.body));
    return res.body.data.points.map((p: { timestamp: string; value: number }) => [p.timestamp, p.value]);
  };
  assert.equal(await days({ time_zone: 'UTC' }), [['2026-02-28T00:00:00.000Z', 0], ['2026-03-01T00:00:00.000Z', 3_000], ['2026-03-02T00:00:00.000Z', 0]]);
  const newYork = [['2026-02-28T05:00:00.000Z', 1_000], ['2026-03-01T05:00:00.000Z', 2_000], ['2026-03-02T05:00:00.000Z', 0]];
  assert.equal(await days({ time_zone: 'America/New_York' }), newYork);
  assert.equal(await days({}), newYork, 'the account\'s ads_scheduling_timezone, America/New_York by default');
  assert.equal(await days({ time_zone: 'Asia/Kathmandu' }), [['2026-02-27T18:15:00.000Z', 0], ['2026-02-28T18:15:00.000Z', 1_000], ['2026-03-01T18:15:00.000Z', 2_000]]);
  const pref = await app.request('PATCH', `/accounts/${s.accountId}/preferences`, { token: s.key, version: VERSION, body: { ads_scheduling_timezone: 'Asia/Kathmandu' } });
  assert.is(pref.status, 200, JSON.stringify(pref.body));
  assert.equal((await days({}))[2], ['2026-03-01T18:15:00.000Z', 2_000]);

  // Timestamps widen to whole periods; months and years.
  const month = await series(s.key, 'gross_revenue', { account_id: s.accountId, from: '2026-02-10T12:00:00Z', to: '2026-03-05T00:00:00+00:00', interval: 'month', time_zone: 'UTC' });
  assert.equal([month.body.data.from, month.body.data.to], ['2026-02-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z']);
  assert.equal(month.body.data.points.map((p: { value: number }) => p.value), [0, 3_000]);
  const hours = await series(s.key, 'gross_revenue', { account_id: s.accountId, from: '2026-03-01T03:00:00Z', to: '2026-03-01T05:00:00Z', interval: 'hour', time_zone: 'UTC' });
  assert.equal(hours.body.data.points.map((p: { value: number }) => p.value), [1_000, 0]);
  const year = await series(s.key, 'gross_revenue', { account_id: s.accountId, from: '2026-01-01', to: '2026-12-31', interval: 'year', time_zone: 'UTC' });
  assert.equal(year.body.data.points, [{ timestamp: '2026-01-01T00:00:00.000Z', value: 3_000, count: 2 }]);
});

t('for random payments, every zone and interval gives what a direct scan of the payments gives', async () => {
  const s = await seller(app);
  let seed = 17;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
  for (let i = 0; i < 60; i++) {
    const at = new Date(Date.parse('2026-04-01T00:00:00Z') + (next() % (5 * 86_400)) * 1000).toISOString();
    await collectedAt(s.accountId, at, 100 + (next() % 900));
  }
  // Each payment's statement inserted its own rollup rows; the compaction job folds them into one row per key, and
  // every series reads the same before and after.
  const rowsPerKey = async () => Number((await app.db.raw(`select max(n)::int as n from (select count(*) as n from stat_rollups
    where account_id = ? group by metric, currency, grain, bucket) k`, [s.accountId])).rows[0].n);
  assert.ok(await rowsPerKey() > 1);
  await checkAgainstScan(s);
  await compactTotals(app.db);
  await compactTotals(app.db);
  assert.is(await rowsPerKey(), 1);
  await checkAgainstScan(s);
});

async function checkAgainstScan(s: { key: string; accountId: string }) {
  for (const zone of ['UTC', 'America/New_York', 'Asia/Kathmandu', 'Australia/Eucla', 'America/St_Johns']) {
    for (const interval of ['hour', 'day', 'week'] as const) {
      const res = await series(s.key, 'gross_revenue', { account_id: s.accountId, from: '2026-04-01', to: interval === 'hour' ? '2026-04-02' : '2026-04-05', interval, time_zone: zone });
      assert.is(res.status, 200, JSON.stringify(res.body));
      const { rows } = await app.db.raw(`select to_char(date_trunc(?, settlement_time_at at time zone ?) at time zone ? at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as t,
        sum(total)::int as v, count(*)::int as c from payments where account_id = ? group by 1`, [interval, zone, zone, s.accountId]);
      const scanned = new Map(rows.map((r: { t: string; v: number; c: number }) => [r.t, [r.v, r.c]]));
      for (const p of res.body.data.points) {
        assert.equal([p.value, p.count], scanned.get(p.timestamp) ?? [0, 0], `${zone} ${interval} ${p.timestamp}`);
      }
    }
  }
}

t('the rollups hold the series: the source rows are not read', async () => {
  const s = await seller(app);
  await collectedAt(s.accountId, '2026-05-01T10:00:00Z', 700);
  // Rewriting a payment's amount by hand afterwards does not change what the series already counted.
  await app.db('payments').where({ account_id: s.accountId }).update({ total: 1 }); // sql-state-write: rewrites a source row on purpose to prove the series reads its rollups, not the rows
  const res = await series(s.key, 'gross_revenue', { account_id: s.accountId, from: '2026-05-01', to: '2026-05-01', time_zone: 'UTC' });
  assert.is(res.body.data.points[0].value, 700);
});

t('errors: scope, another account, unknown metric, window, interval, time zone', async () => {
  const s = await seller(app);
  const other = await seller(app);
  const q = { account_id: s.accountId, from: '2026-01-01', to: '2026-01-31' };
  const viewer = (await makeKey(app.db, { accountId: s.accountId, role: 'viewer' })).secret; // no stats:read
  const refused = await series(viewer, 'gross_revenue', q);
  assert.equal([refused.status, refused.body.error.type], [403, 'permission_denied']);
  const hidden = await series(other.key, 'gross_revenue', q);
  assert.equal([hidden.status, hidden.body.error.type], [404, 'not_found']);
  const unknown = await series(s.key, 'nope', q);
  assert.equal([unknown.status, unknown.body.error.param], [404, 'metric']);
  const bad = async (query: Record<string, string>, param: string) => {
    const res = await series(s.key, 'gross_revenue', { ...q, ...query });
    assert.equal([res.status, res.body.error?.param], [400, param], JSON.stringify(res.body));
  };
  await bad({ from: '2026-02-01', to: '2026-01-01' }, 'to');
  await bad({ from: '2026-02-30' }, 'from');
  await bad({ from: '1969-12-31' }, 'from');
  await bad({ to: '9999-12-31' }, 'to');
  await bad({ from: '2026-02-01Tnoon' }, 'from');
  await bad({ to: 'yesterday' }, 'to');
  await bad({ from: '2020-01-01', to: '2026-01-01' }, 'interval'); // more than 1000 days
  await bad({ interval: 'minute' }, 'interval');
  await bad({ time_zone: 'Mars/Olympus' }, 'time_zone');
  await bad({ time_zone: '+02:00' }, 'time_zone');
  await bad({ currency: 'USD' }, 'currency');
  const missing = await app.request('GET', '/stats/time_series/gross_revenue', { token: s.key, version: VERSION, query: { from: '2026-01-01', to: '2026-01-02' } });
  assert.equal([missing.status, missing.body.error.param], [400, 'account_id']);
});

t('GET /stats lists the catalogue', async () => {
  const s = await seller(app);
  const res = await app.request('GET', '/stats', { token: s.key, version: VERSION });
  assert.is(res.status, 200);
  assert.equal(res.body.data.map((m: { key: string }) => m.key),
    ['gross_revenue', 'net_revenue', 'refunds', 'disputes', 'new_members', 'churned_members', 'active_memberships']);
  assert.equal(res.body.data[0].unit, 'currency');
  assert.equal(res.body.data[4].properties, []);
});

t('GET /stats/{metric} still serves the series, deprecated; before entry 10 it is the only path', async () => {
  const s = await seller(app);
  await collectedAt(s.accountId, '2026-06-01T10:00:00Z', 900);
  const q = { account_id: s.accountId, from: '2026-06-01', to: '2026-06-01', time_zone: 'UTC' };
  const latest = await series(s.key, 'gross_revenue', q, VERSION, '/stats/gross_revenue');
  assert.is(latest.status, 200);
  assert.is(latest.headers.get('deprecation'), 'true');
  assert.is(latest.headers.get('link'), `</api/v1/stats/time_series/gross_revenue?account_id=${s.accountId}&from=2026-06-01&to=2026-06-01&time_zone=UTC>; rel="successor-version"`);
  assert.is(latest.body.data.points[0].value, 900);
  const moved = await series(s.key, 'gross_revenue', q, VERSION);
  assert.is(moved.headers.get('deprecation'), null);

  const old = await series(s.key, 'gross_revenue', q, OLD, '/stats/gross_revenue');
  assert.is(old.status, 200, JSON.stringify(old.body));
  assert.is(old.headers.get('deprecation'), null, 'not deprecated at a pin where it is the path');
  assert.is(old.body.data.points[0].value, 900);
  const absent = await series(s.key, 'gross_revenue', q, OLD);
  assert.is(absent.status, 404);
  const unknown = await series(s.key, 'nope', q, OLD, '/stats/nope');
  assert.is(unknown.status, 404);
});

t.run();
