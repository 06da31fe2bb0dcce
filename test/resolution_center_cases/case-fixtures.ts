// Sellers, paid payments and cases opened by the sandbox's buyer, over HTTP at the latest version.
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeSeller, pay } from '../payments/payment-fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { laterOnClock } from '../helpers/later-on-clock.js';

export const VERSION = headVersion();
/** Before entry 50 (2026-07-30): the official client's default pin. */
export const OLD = '2026-07-20';
export const PAID = 10_000;

export type Seller = Awaited<ReturnType<typeof makeSeller>>;
export const seller = (app: TestApp) => makeSeller(app.db);

export const call = (app: TestApp, key: string, method: string, path: string, body?: unknown, version = VERSION) =>
  app.request(method, path, { token: key, version, body });

/** A 100.00 USD payment, collected. */
export const paid = (app: TestApp, s: Seller, card?: string) => pay(app, s, { amount: PAID, currency: 'usd' }, { card });

/** A case the sandbox's buyer opened on a fresh payment (awaiting_merchant). */
export async function openCase(app: TestApp, s: Seller, body: Record<string, unknown> = {}) {
  const p = await paid(app, s);
  const res = await call(app, s.key, 'POST', '/sandbox/resolution_center_cases',
    { payment_id: p.id, reason: 'item_not_received', message: 'It never came.', ...body });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return { payment: p, c: res.body };
}

export const timeline = async (app: TestApp, key: string, id: string) => {
  const res = await call(app, key, 'GET', `/resolution_center_cases/${id}/events?first=100`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.data.map((e: any) => `${e.actor}:${e.action}`);
};

export const eventTypes = async (app: TestApp, id: string) =>
  (await app.db('events').whereRaw("data->>'id' = ?", [id]).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('type')).map((e) => e.type);

/** Three days and an hour later for the seller (a sandbox clock on its account): past the merchant deadline of the
 * cases it has open (the window is three days and not scaled). `onClock` runs a job at that time. */
export const pastDeadline = (app: TestApp, s: Seller) => laterOnClock(app, s, 3 * 86_400_000 + 3_600_000);
