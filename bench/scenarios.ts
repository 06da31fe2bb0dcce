// The benchmarked requests. Each is sent to the framework and to the hand-written baseline (bench/baseline-server.ts,
// which must serve the same path doing the same work); add a scenario here and its route there.
import type { Fixture } from './seed.js';

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** send a fresh Idempotency-Key with every request (creates) */
  freshIdempotencyKey?: boolean;
}

export interface Scenario {
  /** how the result line names it */
  name: string;
  request(fixture: Fixture): BenchRequest;
  /** the framework/baseline ratio to reach (default 0.85) */
  target?: number;
  /** 'response': both answer the same body after the same queries (reads); 'status': the same status (creates,
   * whose bodies differ by id; the baseline writes the same rows but skips the framework's extra reads) */
  check?: 'response' | 'status';
}

export const scenarios: Scenario[] = [
  {
    // A connected account read with its platform's key: visibility through the parent, then every query of the
    // account view (account, parent, balance sums, reward milestones and payouts, offers).
    name: 'GET /accounts/{id}',
    check: 'response',
    request: (f) => ({
      method: 'GET',
      path: `/api/v1/accounts/${f.connectedId}`,
      headers: { authorization: `Bearer ${f.apiKey}`, accept: 'application/json' },
    }),
  },
  {
    // A saved-card charge with an Idempotency-Key: the baseline writes the same rows (payment, collection job,
    // idempotency record) in one transaction by hand.
    name: 'POST /payments',
    target: 0.6,
    check: 'status',
    request: (f) => ({
      method: 'POST',
      path: '/api/v1/payments',
      headers: { authorization: `Bearer ${f.apiKey}`, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ account_id: f.connectedId, member_id: f.memberId, payment_method_id: f.paymentMethodId, plan_id: f.planId }),
      freshIdempotencyKey: true,
    }),
  },
];

export interface LatencyScenario {
  name: string;
  /** the two requests whose latency is compared, and the largest acceptable ratio second/first */
  first(fixture: Fixture): BenchRequest;
  second(fixture: Fixture): BenchRequest;
  labels: [string, string];
  maxRatio: number;
}

/** Keyset pagination: a page deep in a million-row list costs what the first page costs. */
export const latencyScenarios: LatencyScenario[] = [
  {
    name: 'GET /payments',
    labels: ['page 1', 'deep cursor'],
    maxRatio: 1.3,
    first: (f) => ({ method: 'GET', path: `/api/v1/payments?account_id=${f.connectedId}&first=10`, headers: { authorization: `Bearer ${f.apiKey}` } }),
    second: (f) => ({
      method: 'GET', path: `/api/v1/payments?account_id=${f.connectedId}&first=10&after=${f.deepCursor}`, headers: { authorization: `Bearer ${f.apiKey}` },
    }),
  },
];

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
    // The official client's pin: plural filters (statuses in receipt words), decimal money, company_id, and every
    // change since crossed on each row; at the newest, the same list asked with the singular filters.
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
