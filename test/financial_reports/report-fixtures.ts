// Ledger history placed in time for the report tests: balanced entries posted at a stated instant (the posting
// trigger files them under that UTC day, as it files every posting), and report requests.
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { headVersion } from '../../runtime/versions.js';

export const VERSION = headVersion();
export type Query = Record<string, string | number | boolean | undefined>;

export interface Leg { bucket: string; amount: number }

/** One balanced entry on the account's business ledger at `at` (ISO 8601). */
export async function postAt(app: TestApp, accountId: string, entryId: string, at: string, legs: Leg[], currency = 'usd'): Promise<void> {
  const ledger = await ledgerOf(app.db, accountId);
  await app.db('ledger_postings').insert(legs.map((l) => ({ entry_id: entryId, ledger_id: ledger, bucket: l.bucket, currency, amount: l.amount, created_at: at }))); // sql-state-write: ledger history on past days and months for the reports: a sandbox clock never goes back in time
}

export const money = (amount: number, currency = 'usd') => ({ amount, currency, decimals: currency === 'jpy' ? 0 : 2, display_decimals: currency === 'jpy' ? 0 : 2 });

/** A report row as the API shows it, from the movements of its buckets. */
export function row(type: string, count: number, m: Partial<Record<'available' | 'pending' | 'in_transit' | 'held' | 'fees', number>>, currency = 'usd') {
  const of = (b: keyof typeof m) => m[b] ?? 0;
  return {
    type, count, net: money(of('available') + of('pending') + of('in_transit') + of('held'), currency),
    available: money(of('available'), currency), pending: money(of('pending'), currency), in_transit: money(of('in_transit'), currency),
    held: money(of('held'), currency), fees: money(of('fees'), currency),
  };
}

export async function report(app: TestApp, token: string, query: Query, o: { version?: string; status?: number; path?: string } = {}) {
  const res = await app.request('GET', o.path ?? '/financial_reports', { token, version: o.version ?? VERSION, query });
  assert.is(res.status, o.status ?? 200, JSON.stringify(res.body));
  return res.body;
}

export const breakdown = (app: TestApp, token: string, query: Query, o: { version?: string; status?: number } = {}) =>
  report(app, token, query, { ...o, path: '/financial_reports/breakdown' });
