// The benchmarked requests. Each is sent to the framework and to the hand-written baseline (bench/baseline-server.ts,
// which must serve the same path doing the same work); add a scenario here and its route there.
import type { Fixture } from './seed.js';

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Scenario {
  /** how the result line names it */
  name: string;
  request(fixture: Fixture): BenchRequest;
}

export const scenarios: Scenario[] = [
  {
    // A connected account read with its platform's key: visibility through the parent, then every query of the
    // account view (account, parent, balance sums, reward milestones and payouts, offers).
    name: 'GET /accounts/{id}',
    request: (f) => ({
      method: 'GET',
      path: `/api/v1/accounts/${f.connectedId}`,
      headers: { authorization: `Bearer ${f.apiKey}`, accept: 'application/json' },
    }),
  },
];

export interface VersionScenario {
  name: string;
  request(fixture: Fixture, version: string): BenchRequest;
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
];
