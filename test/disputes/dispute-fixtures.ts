// Sellers whose buyers pay with the sandbox card network's test cards, and the network's steps run as its jobs
// would run them (without their delays).
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeSeller, makeVariant, pay, settleRefunds } from '../payments/payment-fixtures.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { reportOnPayment } from '../../sandbox/card_scheme/index.js';
import { headVersion } from '../../runtime/versions.js';

export const VERSION = headVersion();
/** Before entry 52 (2026-07-30) and entry 14 (2026-08-28): the official client's default pin. */
export const OLD = '2026-07-20';

export const NETWORK_CARDS = {
  chargeback: '4000000000000259',
  earlyFraudWarning: '4000000000005423',
  disputeAlert: '4000000000001976',
  rapidDisputeResolution: '4000000000006975',
};

/** 100.00 USD paid: fees 3.20 processing + 1.00 platform, so 95.80 lands in pending. */
export const PAID = 10_000;
export const NET = 9_580;
export const DISPUTE_FEE = 1_500;
export const ALERT_FEE = 1_000;

export async function seller(app: TestApp) {
  const s = await makeSeller(app.db);
  return { ...s, ledger: await ledgerOf(app.db, s.accountId) };
}

/** A payment with `card`, settled, and the network's report on it made. `plan`: a variant purchase (a membership). */
export async function paidWith(app: TestApp, s: Awaited<ReturnType<typeof seller>>, card: string, plan = false) {
  const body = plan ? { plan_id: (await makeVariant(app, s.accountId, { price: PAID, planType: 'one_time' })).id } : { amount: PAID, currency: 'usd' };
  const p = await pay(app, s, body, { card });
  await reportOnPayment(app.db, p.id);
  return p;
}

export async function disputeOf(app: TestApp, paymentId: string) {
  const row = await app.db('disputes').where({ payment_id: paymentId }).first();
  assert.ok(row, `a dispute on ${paymentId}`);
  return row;
}

export const balance = async (app: TestApp, ledger: string, bucket: string) =>
  Number((await app.db('ledger_balances').where({ ledger_id: ledger, currency: 'usd', bucket }).first('amount'))?.amount ?? 0);

export async function refund(app: TestApp, key: string, paymentId: string, body: Record<string, unknown> = {}) {
  const res = await app.request('POST', `/payments/${paymentId}/refund`, { token: key, version: VERSION, body });
  assert.is(res.status, 200, JSON.stringify(res.body));
  await settleRefunds(app, paymentId);
}

export const eventTypes = async (app: TestApp, id: string) =>
  (await app.db('events').whereRaw("data->>'id' = ?", [id]).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('type')).map((e) => e.type);
