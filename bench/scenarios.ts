// The benchmarked requests. Each scenario is sent to the framework, to the same-work baseline (bench/baseline-server.ts,
// which must serve the same path doing the same work) and to the expert baseline (bench/expert-server.ts, which must
// answer the same body with the fewest statements); add a scenario here and its route in both.
import type { Fixture } from './seed.js';

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** send a fresh Idempotency-Key with every request (creates) */
  freshIdempotencyKey?: boolean;
  /** a body made afresh for every request (the same function for every side, so each sees the same mix) */
  freshBody?: () => string;
}

export interface Scenario {
  /** how the result line names it */
  name: string;
  request(fixture: Fixture): BenchRequest;
  /** the framework/same-work ratio to reach (default 0.85; framework/expert's is 0.80 for every scenario) */
  target?: number;
  /** 'response': all answer the same body, the same-work baseline after the same statements (reads); 'status': a 2xx
   * each (creates, whose bodies differ by id: the expert's must equal the framework's but for id and timestamps, and
   * so must the rows it writes; the same-work baseline writes the same rows but answers its row as it is) */
  check?: 'response' | 'status';
  /** the baselines it is measured against, when not both (a create the same-work baseline does not serve) */
  baselines?: ('same-work' | 'expert')[];
  /** for creates: the rows the expert writes are compared with the framework's (POST /payments: the payment and its
   * job; the idempotency record, its sealed response opened, is compared for every create with a fresh key) */
  compareRows?: boolean;
}

const auth = (f: Fixture) => ({ authorization: `Bearer ${f.apiKey}`, accept: 'application/json' });

export const scenarios: Scenario[] = [
  {
    // A connected account read with its platform's key: visibility through the parent, then every query of the
    // account view (account, parent, balances, reward milestones and payouts, offers).
    name: 'GET /accounts/{id}',
    check: 'response',
    request: (f) => ({ method: 'GET', path: `/api/v1/accounts/${f.connectedId}`, headers: auth(f) }),
  },
  {
    // One of the connected account's million payments, with its buyer.
    name: 'GET /payments/{id}',
    check: 'response',
    request: (f) => ({ method: 'GET', path: `/api/v1/payments/${f.paymentId}`, headers: auth(f) }),
  },
  {
    // The first page of ten of the connected account's million payments, newest first.
    name: 'GET /payments',
    check: 'response',
    request: (f) => ({ method: 'GET', path: `/api/v1/payments?account_id=${f.connectedId}&first=10`, headers: auth(f) }),
  },
  {
    // A saved-card charge with an Idempotency-Key: the baselines write the same rows (payment, collection job,
    // idempotency record) in one transaction by hand.
    name: 'POST /payments',
    check: 'status',
    request: (f) => ({
      method: 'POST',
      path: '/api/v1/payments',
      headers: { ...auth(f), 'content-type': 'application/json' },
      body: JSON.stringify({ account_id: f.connectedId, member_id: f.memberId, payment_method_id: f.paymentMethodId, plan_id: f.planId }),
      freshIdempotencyKey: true,
    }),
    compareRows: true,
  },
  {
    // A payout of 10.00 from the connected account to its saved bank account, with an Idempotency-Key: the payout,
    // its reservation (two postings moving the materialised balance), the rail's job, the payout.created event with
    // its dispatch job and the idempotency record, in one transaction. Against the expert only.
    name: 'POST /payouts',
    check: 'status',
    baselines: ['expert'],
    request: (f) => ({
      method: 'POST',
      path: '/api/v1/payouts',
      headers: { ...auth(f), 'content-type': 'application/json' },
      body: JSON.stringify({ account_id: f.connectedId, payout_method_id: f.payoutMethodId, amount: '10.00' }),
      freshIdempotencyKey: true,
    }),
  },
  {
    // Event ingestion, the one write that may be hot: a page view of one of 10,000 visitors (anonymous ids), so
    // most events find their person and some create one. The same-work baseline writes the same rows with the same
    // statements by hand (lock the identities, read them, create the person when new, insert the event and update
    // the person); event_rollups' trigger runs for both.
    name: 'POST /events',
    // not a headline: the bound all scenarios had before the headlines' was raised (bench/run.ts TARGET)
    target: 0.85,
    check: 'status',
    baselines: ['same-work'],
    request: (f) => {
      const body = () => JSON.stringify({ account_id: f.connectedId, event_name: 'page', url: 'https://shop.example/pricing',
        user: { anonymous_id: `visitor-${Math.floor(Math.random() * 10_000)}` } });
      return { method: 'POST', path: '/api/v1/events', headers: { ...auth(f), 'content-type': 'application/json' }, body: body(), freshBody: body };
    },
  },
];

export interface LatencyScenario {
  name: string;
  /** the two requests to the framework whose latency is compared, and the largest acceptable ratio second/first */
  first(fixture: Fixture): BenchRequest;
  second(fixture: Fixture): BenchRequest;
  labels: [string, string];
  maxRatio: number;
  /** what is compared, for the log */
  describe(fixture: Fixture): string;
  /** why a 200 answer to the first (0) or second (1) request is not the one to measure; null when it is */
  check(body: any, fixture: Fixture, which: 0 | 1): string | null;
  /** the servers the two requests go to, when not both the framework ('same-work': the hand-written baseline) */
  on?: ['framework' | 'same-work', 'framework' | 'same-work'];
  /** measure one request at a time, this many each (a statement's own cost, not throughput under load: a scan of a
   * million rows under 20 connections would only measure the queue) */
  sequential?: number;
}

export const latencyScenarios: LatencyScenario[] = [
  {
    // Keyset pagination: a page deep in a million-row list costs what the first page costs.
    name: 'GET /payments',
    labels: ['page 1', 'deep cursor'],
    maxRatio: 1.3,
    describe: (f) => `over ${f.paymentRows} rows`,
    check: (body) => (body.data?.length ? null : 'an empty page'),
    first: (f) => ({ method: 'GET', path: `/api/v1/payments?account_id=${f.connectedId}&first=10`, headers: { authorization: `Bearer ${f.apiKey}` } }),
    second: (f) => ({
      method: 'GET', path: `/api/v1/payments?account_id=${f.connectedId}&first=10&after=${f.deepCursor}`, headers: { authorization: `Bearer ${f.apiKey}` },
    }),
  },
  {
    // Materialised balances (migrations/130_ledger_balances.ts): an account's balance costs the same whatever the
    // length of its ledger. The two accounts differ only by their postings.
    name: 'GET /accounts/{id} by ledger length',
    labels: ['60 postings', '1M postings'],
    maxRatio: 1.1,
    describe: (f) => `${f.ledgerPostings + 60} postings against 60`,
    check: (body, f, which) => {
      if (which === 0) return null;
      const shown = Object.fromEntries(Object.entries(body.balance).map(([bucket, m]) => [bucket, (m as { amount: number }).amount]));
      return JSON.stringify(shown) === JSON.stringify(f.ledgerBalance) ? null
        : `the balance shown, ${JSON.stringify(shown)}, is not the sum of the postings, ${JSON.stringify(f.ledgerBalance)}`;
    },
    first: (f) => ({ method: 'GET', path: `/api/v1/accounts/${f.connectedId}`, headers: auth(f) }),
    second: (f) => ({ method: 'GET', path: `/api/v1/accounts/${f.ledgerHeavyId}`, headers: auth(f) }),
  },
  {
    // Daily totals (migrations/260_ledger_daily_totals.ts): a year's report of a million postings sums 365 days of
    // totals and the postings of its partial first and last days, as a day's report reads its two partial days.
    name: 'GET /financial_reports by window',
    labels: ['one day', 'one year'],
    maxRatio: 1.5,
    describe: (f) => `over ${f.ledgerPostings} postings spread over a year`,
    check: (body, f, which) => {
      const rows = body.currencies?.[0]?.rows ?? [];
      if (which === 0) return rows.length ? null : 'an empty report';
      const shown = rows.find((r: { type: string }) => r.type === 'adjustment');
      const want = f.reportYear;
      const got = shown && { entries: shown.count, buckets: { available: shown.available.amount, pending: shown.pending.amount, in_transit: shown.in_transit.amount } };
      return got && got.entries === want.entries && ['available', 'pending', 'in_transit'].every((b) => got.buckets[b as 'available'] === want.buckets[b])
        ? null : `the year's report, ${JSON.stringify(got)}, is not the sum of its postings, ${JSON.stringify(want)}`;
    },
    first: (f) => ({ method: 'GET', path: reportPath(f.ledgerHeavyId, f.reportDay), headers: auth(f) }),
    second: (f) => ({ method: 'GET', path: reportPath(f.ledgerHeavyId, f.reportYear), headers: auth(f) }),
  },
  {
    // Stats rollups (migrations/310_stat_rollups.ts): a year's daily series over a million payments reads the year's
    // day rollups (and, per boundary, the hour and quarter-hour rows before it in its UTC day), never the payments.
    name: 'GET /stats/time_series by window',
    labels: ['one day', 'one year'],
    maxRatio: 3,
    sequential: 20,
    describe: (f) => `gross revenue over ${f.paymentRows} payments spread over a year: 1 period against 366, read from day rows`,
    check: (body, f, which) => checkSeries(body, f, which, 1),
    first: (f) => ({ method: 'GET', path: statsPath(f.connectedId, f.statsDay), headers: auth(f) }),
    second: (f) => ({ method: 'GET', path: statsPath(f.connectedId, f.statsYear), headers: auth(f) }),
  },
  {
    // The same year-long series against a hand-written baseline that sums the payments themselves
    // (bench/baseline-server.ts): the ratio is the framework's latency over the scan's.
    name: 'GET /stats/time_series against a scan of the payments',
    labels: ['payments scan', 'rollups'],
    maxRatio: 0.1,
    sequential: 10,
    describe: (f) => `a year of gross revenue by day over ${f.paymentRows} payments: the hand-written scan, then the framework`,
    check: (body, f) => checkSeries(body, f, 0, 0),
    on: ['same-work', 'framework'],
    first: (f) => ({ method: 'GET', path: statsPath(f.connectedId, f.statsYear), headers: auth(f) }),
    second: (f) => ({ method: 'GET', path: statsPath(f.connectedId, f.statsYear), headers: auth(f) }),
  },
];

/** The year's gross revenue series holds every seeded payment (10.00 each), and the day's series has points. */
function checkSeries(body: any, f: Fixture, which: 0 | 1, year: 0 | 1): string | null {
  const points: { value: number; count: number }[] = body.data?.points ?? [];
  if (which !== year) return points.length ? null : 'no points';
  const total = points.reduce((sum, p) => sum + p.value, 0);
  const count = points.reduce((sum, p) => sum + p.count, 0);
  return total === f.statsYear.total && count === f.statsYear.count ? null
    : `the year's series sums to ${total} over ${count} payments, not ${f.statsYear.total} over ${f.statsYear.count}`;
}

function statsPath(accountId: string, w: { from: string; to: string }): string {
  return `/api/v1/stats/time_series/gross_revenue?account_id=${accountId}&from=${w.from}&to=${w.to}&interval=day&time_zone=UTC`;
}

function reportPath(accountId: string, w: { from: string; to: string }): string {
  return `/api/v1/financial_reports?account_id=${accountId}&from=${encodeURIComponent(w.from)}&to=${encodeURIComponent(w.to)}`;
}

export interface VersionScenario {
  name: string;
  request(fixture: Fixture, version: string): BenchRequest;
  /** the older version to compare with the newest; the oldest by default */
  older?: string;
  /** the least older/newer ratio accepted; the version target by default */
  target?: number;
}

/** The same request at the newest version and at the oldest, which crosses every change that touches it. */
export const versionScenarios: VersionScenario[] = [
  {
    name: 'GET /accounts/{id} by version',
    request: (f, version) => ({
      method: 'GET',
      path: `/api/v1/accounts/${f.connectedId}`,
      headers: { authorization: `Bearer ${f.apiKey}`, accept: 'application/json', 'api-version-date': version },
    }),
  },
  {
    // The official client's pin asking the newest's question: its plural filters with one value each, the status as
    // a substatus (the head's own word, which the client's `substatuses` filter takes), company_id, and every change
    // since crossed on each row (decimal money, receipt statuses, pdf_url read for it). What the pin costs over the
    // newest: its target (0.95).
    name: 'GET /payments by version, the same question',
    older: '2026-07-20',
    target: 0.95,
    request: (f, version) => ({
      method: 'GET',
      path: version === '2026-07-20'
        ? `/api/v1/payments?company_id=${f.connectedId}&first=25&substatuses[]=succeeded&currencies[]=usd&billing_reasons[]=one_time`
        : `/api/v1/payments?account_id=${f.connectedId}&first=25&status=succeeded&currency=usd&billing_reason=one_time`,
      headers: { authorization: `Bearer ${f.apiKey}`, accept: 'application/json', 'api-version-date': version },
    }),
  },
  {
    // The official client's pin: plural filters (statuses in receipt words), decimal money, company_id, and every
    // change since crossed on each row; at the newest, the same list asked with the singular filters. The two do not
    // ask the same question: `paid` is three statuses at the head (a merge of three index walks), which the newest
    // cannot ask in one request.
    name: 'GET /payments by version',
    older: '2026-07-20',
    target: 0.85,
    request: (f, version) => ({
      method: 'GET',
      path: version === '2026-07-20'
        ? `/api/v1/payments?company_id=${f.connectedId}&first=25&statuses[]=paid&currencies[]=usd&billing_reasons[]=one_time`
        : `/api/v1/payments?account_id=${f.connectedId}&first=25&status=succeeded&currency=usd&billing_reason=one_time`,
      headers: { authorization: `Bearer ${f.apiKey}`, accept: 'application/json', 'api-version-date': version },
    }),
  },
];
