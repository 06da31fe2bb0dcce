// Owners with money and payout methods, through the API (the balance is funded as a cleared payment would be).
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { stepPayout } from '../../sandbox/payout_rail/index.js';

export const VERSION = headVersion();

/** An account a day old (so only large payouts are reviewed) with `funds` available and a US bank account saved. */
export async function payoutOwner(app: TestApp, funds = 100_000, destination = '123456789') {
  const o = await makeOwner(app.db);
  await app.db('accounts').where({ id: o.accountId }).update({ created_at: app.db.raw("now() - interval '2 days'") }); // sql-state-write: the payout tests step the rail at real time (stepPayout outside any clock), where an account is a day old only after a real day
  const ledger = await fundBalance(app.db, o.accountId, funds);
  const method = await saveMethod(app, o.key, { account_id: o.accountId }, destination);
  return { ...o, ledger, methodId: method.id as string };
}

export async function saveMethod(app: TestApp, token: string, owner: Record<string, string>, accountNumber: string,
  rail = 'podst_us_ach', extra: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/payouts/methods', {
    token, version: VERSION,
    body: { ...owner, supported_payout_method_id: rail, nickname: `Bank ${accountNumber.slice(-4)} ${Math.random().toString(36).slice(2, 6)}`,
      fields: { account_number: accountNumber, ...(rail === 'podst_us_ach' ? { routing_number: '110000000' } : {}) }, ...extra },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

export const available = async (app: TestApp, ledger: string, bucket = 'available') =>
  Number((await app.db('ledger_balances').where({ ledger_id: ledger, currency: 'usd', bucket }).first('amount'))?.amount ?? 0);

/** Runs the rail's steps until the payout rests (what the worker's jobs would do, without their delays). */
export async function settle(app: TestApp, payoutId: string): Promise<string> {
  let status = '';
  for (let i = 0; i < 6; i++) {
    const next = await stepPayout(app.db, payoutId);
    if (next === null) break;
    status = next;
  }
  return status || (await app.db('payouts').where({ id: payoutId }).first('status')).status;
}

/** Holds the funds of `o` with kyc_incomplete the product's way: a payout past the unverified limit (10,000.00 USD,
 * handlers/payouts/kyc-gate.ts) is refused and sets the hold. Needs no funds: the gate is checked before the balance. */
export async function holdForKyc(app: TestApp, o: { key: string; accountId: string }) {
  const method = await saveMethod(app, o.key, { account_id: o.accountId }, '123456789');
  const res = await app.request('POST', '/payouts', { token: o.key, version: VERSION,
    body: { account_id: o.accountId, payout_method_id: method.id, amount: '10000.01' } });
  assert.equal([res.status, res.body.error?.param], [400, 'payment_controls.undated_pending_reason'], JSON.stringify(res.body));
  assert.match(res.body.error.message, /kyc incomplete/);
  return res;
}

/** Puts the account under compliance review, or resolves it, through the sandbox operations. */
export async function complianceReview(app: TestApp, o: { key: string; accountId: string }, resolve = false) {
  const res = await app.request('POST', `/sandbox/accounts/${o.accountId}/compliance_review${resolve ? '/resolve' : ''}`, { token: o.key, version: VERSION });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
}
