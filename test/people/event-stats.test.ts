// GET /stats/events over HTTP: a known mix of events (several names, attributed to USD and EUR payments or not, at
// times across days, hours and quarter-hours) summed over windows with unaligned edges, against the answer the test
// computes from the events themselves; the same after compaction; filters, refusals, scopes and another account.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { makeSeller, pay, viewerKey, VERSION } from '../payments/payment-fixtures.js';
import { compactTotals } from '../../handlers/shared/compact-totals.js';

const t = suite('event-stats');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const QUARTER = 15 * 60 * 1000;
const stats = (key: string, query: Record<string, string>) => app.request('GET', '/stats/events', { token: key, version: VERSION, query });

interface Tracked { name: string; at: number; payment?: { id: string; total: number; currency: string } }

/** What the window [floor(from), ceil(to)) holds, from the events as the test sent them. */
function expected(all: Tracked[], from: string, to: string, currency: string, only?: string) {
  const s = Math.floor(Date.parse(from) / QUARTER) * QUARTER;
  const e = Math.ceil(Date.parse(to) / QUARTER) * QUARTER;
  const by = new Map<string, { conversions: number; attributed: number; revenue: number }>();
  for (const ev of all) {
    if (ev.at < s || ev.at >= e || (only && ev.name !== only)) continue;
    const n = by.get(ev.name) ?? { conversions: 0, attributed: 0, revenue: 0 };
    n.conversions += 1;
    if (ev.payment) { n.attributed += 1; if (ev.payment.currency === currency) n.revenue += ev.payment.total; }
    by.set(ev.name, n);
  }
  return [...by].sort(([a, x], [b, y]) => y.conversions - x.conversions || a.localeCompare(b))
    .map(([name, n]) => [name, n.conversions, n.attributed, n.revenue]);
}

t('attributed conversions over windows with unaligned edges equal a scan of the events, before and after compaction', async () => {
  const seller = await makeSeller(app.db);
  const usd = await pay(app, seller, { amount: 2500, currency: 'usd' });
  const usd2 = await pay(app, seller, { amount: 1200, currency: 'usd' });
  const eur = await pay(app, seller, { amount: 4000, currency: 'eur' });
  const payments = [usd, usd2, eur].map((p) => ({ id: p.id, total: p.created.total.amount as number, currency: p.created.total.currency as string }));
  const base = Date.parse('2026-09-01T00:00:00Z');
  const all: Tracked[] = [];
  // 60 events over three days at minutes that fall on every grain's edges (7 minutes apart, plus a few exact edges)
  for (let i = 0; i < 60; i++) {
    const at = base + i * 71 * 60 * 1000 + (i % 3) * 7 * 60 * 1000;
    const name = ['page', 'purchase', 'lead', 'page'][i % 4]!;
    const payment = name === 'purchase' ? payments[i % 3] : undefined;
    all.push({ name, at, payment });
  }
  all.push({ name: 'purchase', at: Date.parse('2026-09-02T00:00:00Z'), payment: payments[0] });
  all.push({ name: 'lead', at: Date.parse('2026-09-02T05:45:00Z') });
  for (const [i, ev] of all.entries()) {
    const res = await app.request('POST', '/events', { token: seller.key, version: VERSION, body: {
      account_id: seller.accountId, event_name: ev.name, event_time: new Date(ev.at).toISOString(),
      payment_id: ev.payment?.id, user: { anonymous_id: `visitor-${i % 7}` } } });
    assert.is(res.status, 201, JSON.stringify(res.body));
  }
  const windows: [string, string][] = [
    ['2026-09-01T00:00:00Z', '2026-09-04T00:00:00Z'],
    ['2026-09-01T03:07:00Z', '2026-09-02T17:52:00Z'],
    ['2026-09-01T10:20:00Z', '2026-09-01T10:50:00Z'],
    ['2026-09-01T23:59:00Z', '2026-09-02T00:01:00Z'],
    ['2026-09-02T05:45:00Z', '2026-09-03T19:00:00+05:45'],
    ['2026-08-01T00:00:00Z', '2026-08-02T00:00:00Z'],
  ];
  const check = async () => {
    for (const [from, to] of windows) {
      for (const currency of ['usd', 'eur']) {
        const res = await stats(seller.key, { account_id: seller.accountId, from, to, currency });
        assert.is(res.status, 200, JSON.stringify(res.body));
        const d = res.body.data;
        const want = expected(all, from, to, currency);
        assert.equal(d.events.map((e: any) => [e.event_name, e.conversions, e.attributed_conversions, e.attributed_revenue.amount]), want, `${from} ${to} ${currency}`);
        assert.equal([d.conversions, d.attributed_conversions, d.attributed_revenue.amount, d.attributed_revenue.currency],
          [want.reduce((s, w) => s + (w[1] as number), 0), want.reduce((s, w) => s + (w[2] as number), 0), want.reduce((s, w) => s + (w[3] as number), 0), currency]);
        assert.is(d.from, new Date(Math.floor(Date.parse(from) / QUARTER) * QUARTER).toISOString());
        assert.is(d.to, new Date(Math.ceil(Date.parse(to) / QUARTER) * QUARTER).toISOString());
      }
    }
    const purchases = await stats(seller.key, { account_id: seller.accountId, from: windows[0]![0], to: windows[0]![1], event_name: 'purchase' });
    assert.equal(purchases.body.data.events.map((e: any) => [e.event_name, e.conversions, e.attributed_conversions, e.attributed_revenue.amount]),
      expected(all, windows[0]![0], windows[0]![1], 'usd', 'purchase'));
  };
  await check();
  await compactTotals(app.db);
  const keys = await app.db('event_rollups').where({ account_id: seller.accountId }).select(app.db.raw('count(*) as n, count(distinct (event_name, currency, grain, bucket)) as k'));
  assert.is(Number(keys[0].n), Number(keys[0].k));
  await check();
  // merging people moves events but not conversions
  await app.request('POST', '/events', { token: seller.key, version: VERSION, body: {
    account_id: seller.accountId, event_name: 'identify', event_time: '2026-08-01T00:00:00Z', user: { anonymous_id: 'visitor-1', user_id: usd.buyerId } } });
  const after = await stats(seller.key, { account_id: seller.accountId, from: windows[0]![0], to: windows[0]![1] });
  assert.equal(after.body.data.events.map((e: any) => [e.event_name, e.conversions, e.attributed_conversions, e.attributed_revenue.amount]),
    expected(all, windows[0]![0], windows[0]![1], 'usd'));
});

t('refusals name their parameter; another account is a 404 and a viewer without stats:read a 403', async () => {
  const o = await makeOwner(app.db);
  const ok = { account_id: o.accountId, from: '2026-09-01T00:00:00Z', to: '2026-09-02T00:00:00Z' };
  const empty = await stats(o.key, ok);
  assert.equal([empty.status, empty.body.data.events, empty.body.data.conversions], [200, [], 0]);
  for (const [query, param] of [
    [{ ...ok, to: ok.from }, 'to'], [{ ...ok, to: '2026-08-01T00:00:00Z' }, 'to'], [{ ...ok, from: '2026-09-01' }, 'from'],
    [{ ...ok, currency: 'USD' }, 'currency'], [{ ...ok, event_name: 'a b' }, 'event_name'], [{ from: ok.from, to: ok.to }, 'account_id'],
  ] as [Record<string, string>, string][]) {
    const res = await stats(o.key, query);
    assert.equal([res.status, res.body.error?.param], [400, param], JSON.stringify(query));
  }
  const stranger = await makeOwner(app.db);
  assert.is((await stats(stranger.key, ok)).status, 404);
  const viewer = await viewerKey(app.db, o.accountId);
  assert.is((await stats(viewer, ok)).status, 403);
});

t.run();
