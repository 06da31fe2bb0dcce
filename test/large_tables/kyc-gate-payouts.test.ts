// The KYC gate's lifetime payouts (handlers/payouts/kyc-gate.ts) under a long payout history: LARGE_TABLE_ROWS small
// payouts of an unverified account. The gate reads the account's payout totals (migrations/590_payout_totals.ts), a
// few rows, never the payouts themselves; its arithmetic still counts every one of them (a payout that would pass the
// limit with them is refused, one that would not passes).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { pagePlan, recordStatements, stopRecordingStatements } from '../helpers/page-plans.js';
import { payoutOwner, VERSION } from '../payouts/payout-fixtures.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const t = suite('large tables: the KYC gate under a long payout history');
let app: TestApp;

recordStatements();
t.before(async () => { app = await startTestApp(); });
t.after(async () => { stopRecordingStatements(); await app.close(); });

t('a payout request reads a few payout totals rows, whatever the history, and counts all of it', async () => {
  const o = await payoutOwner(app, 1_000_000);
  // Completed payouts of 0.40 USD (every tenth failed, which does not count): 0.36 * ROWS USD paid out.
  // sql-state-write: bulk seeding for a query-plan case: ROWS payouts through the API and the rail would take far longer than the test
  await app.db.raw(`insert into payouts (id, account_id, ledger_id, payout_method_id, status, speed, currency, amount, fee_amount, net_amount,
      destination_currency, destination_amount, created_at, updated_at)
    select 'wdrl_kyc' || lpad(i::text, 8, '0'), ?, ?, ?, case when i % 10 = 0 then 'failed' else 'completed' end, 'standard', 'usd', 40, 0, 40,
      'usd', 40, now() - interval '1 day' - i * interval '1 second', now()
    from generate_series(1, ?) i`, [o.accountId, o.ledger, o.methodId, ROWS]);
  await app.db.raw('analyze payouts');
  const paidOut = Math.floor(ROWS * 9 / 10) * 40;
  const headroom = 1_000_000 - paidOut;
  assert.ok(headroom > 200, 'LARGE_TABLE_ROWS leaves room under the limit');
  const body = (cents: number) => ({ account_id: o.accountId, payout_method_id: o.methodId, amount: (cents / 100).toFixed(2) });

  const passed = await pagePlan(app, 'POST', '/payouts', { token: o.key, version: VERSION, body: body(100) }, 'payout_totals', 201);
  assert.not.ok(passed.nodes.some((n) => / on payouts\b/.test(n)), passed.plan);
  assert.ok(passed.scanned <= 10, `payout_totals rows read: ${passed.scanned} (${passed.plan})`);

  const refused = await app.request('POST', '/payouts', { token: o.key, version: VERSION, body: body(headroom - 100 + 1) });
  assert.is(refused.status, 400, JSON.stringify(refused.body));
  assert.is(refused.body.error.param, 'payment_controls.undated_pending_reason');
});

t.run();
