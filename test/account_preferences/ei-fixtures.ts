// Accounts for the Economic Intelligence billing tests, reached through the product: an owner on a sandbox clock,
// funded by a sale whose funds cleared (the clock advanced past the clearing delay), and the balance as the ledger
// holds it.
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { balanceRowsOf } from '../helpers/ledger.js';
import { makeSeller, makeVariant, pay } from '../payments/payment-fixtures.js';
import { clearingSeconds } from '../../handlers/ledger/clearing.js';

export const DAY = 86_400_000;
export const HOUR = 3_600_000;

export interface ClockedOwner { key: string; accountId: string; clientId: string; clockId: string; now: number }

async function ok(app: TestApp, key: string, method: string, path: string, body?: unknown) {
  const res = await app.request(method, path, { token: key, body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A new owner whose account runs on a clock standing a day ahead, at a whole second. */
export async function clockedOwner(app: TestApp): Promise<ClockedOwner> {
  const s = await makeSeller(app.db);
  const now = Math.ceil((Date.now() + DAY) / 1000) * 1000;
  const clock = await ok(app, s.key, 'POST', '/sandbox/clocks', { account_id: s.accountId, frozen_time: new Date(now).toISOString() });
  return { key: s.key, accountId: s.accountId, clientId: s.clientId, clockId: clock.id, now };
}

/** Moves the owner's clock to `at` and waits until everything due by then ran. */
export async function advanceTo(app: TestApp, o: ClockedOwner, at: number): Promise<void> {
  await ok(app, o.key, 'POST', `/sandbox/clocks/${o.clockId}/advance`, { frozen_time: new Date(at).toISOString() });
  await until(async () => (await ok(app, o.key, 'GET', `/sandbox/clocks/${o.clockId}`)).status === 'ready', 'the clock to be ready',
    { timeoutMs: 30_000, everyMs: 100 });
  o.now = at;
}

/** The account's available USD (minor units). */
export async function available(app: TestApp, accountId: string): Promise<number> {
  const row = (await balanceRowsOf(app.db, accountId)).find((r) => r.bucket === 'available' && r.currency === 'usd');
  return Number(row?.amount ?? 0);
}

/** A sale of `price` (minor units) collected on the clock, then the clock moved past the clearing delay: its net
 * amount is available. Answers the available balance. */
export async function funded(app: TestApp, o: ClockedOwner, price: number): Promise<number> {
  const variant = await makeVariant(app, o.accountId, { planType: 'one_time', price });
  const payment = await pay(app, o, { plan_id: variant.id }, { collect: false });
  await until(async () => (await ok(app, o.key, 'GET', `/payments/${payment.id}`)).status === 'succeeded', 'the sale collected',
    { timeoutMs: 20_000, everyMs: 100 });
  await advanceTo(app, o, o.now + clearingSeconds() * 1000 + 60_000);
  const balance = await available(app, o.accountId);
  assert.ok(balance > 0, 'the sale cleared to available');
  return balance;
}
