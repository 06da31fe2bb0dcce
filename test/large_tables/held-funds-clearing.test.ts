// The funds gate (payment_controls.undated_pending_reason, set by the KYC gate: handlers/payouts/kyc-gate.ts) under a
// long history of held funds: an unverified account past the KYC limit keeps selling, and its settled payments' funds
// stay pending for as long as it is held: LARGE_TABLE_ROWS of them, all past their clearing time. The clearing sweep
// (handlers/ledger/clearing.ts, every minute at real time, run here as the worker runs it) must skip them without
// reading them every minute: it sets each aside the first time (migrations/596_held_funds_off_clearing_index.ts), then
// reads about a batch of due rows whatever the held accounts have waiting. Once the hold is lifted (a compliance
// review resolved here) all of them clear on its next run.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { clearDueFundsTask } from '../../handlers/ledger/index.js';
import { payoutOwner, VERSION } from '../payouts/payout-fixtures.js';
import { makeOwner } from '../helpers/fixtures.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { assertIndexed, costOf, recorded, reportCost } from './statement-cost.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const t = suite('large tables: the clearing sweep under a long history of held funds');
let app: TestApp;

t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const clearingRun = async () => { await clearDueFundsTask(app.db)({}, {} as never); };

t('the sweep reads a few rows, not the held account\'s waiting payments', async () => {
  const o = await payoutOwner(app, 2_000_000);
  const payout = (amount: string) => app.request('POST', '/payouts', { token: o.key, version: VERSION, body: { account_id: o.accountId, payout_method_id: o.methodId, amount } });
  // 10,000.00 USD is the limit: paying out 9,999.00 passes the gate; 1.01 more is refused and holds the account's funds.
  assert.is((await payout('9999.00')).status, 201);
  const refused = await payout('1.01');
  assert.is(refused.status, 400, JSON.stringify(refused.body));
  assert.is(refused.body.error.param, 'payment_controls.undated_pending_reason', JSON.stringify(refused.body));
  assert.is((await app.db('accounts').where({ id: o.accountId }).first('undated_pending_reason')).undated_pending_reason, 'kyc_incomplete');

  // sql-state-write: bulk seed of the held account's settled sales (ROWS payments through the API would take far longer than the test), all past their clearing time
  await app.db.raw(`insert into payments (id, account_id, status, billing_reason, currency, subtotal, total, usd_total, settlement_time_at, created_at, updated_at)
    select 'pay_hfc' || lpad(i::text, 8, '0'), ?, 'succeeded', 'one_time', 'usd', 1000, 1000, 1000, now() - interval '30 days' + i * interval '1 second',
      now() - interval '30 days', now()
    from generate_series(1, ?) i`, [o.accountId, ROWS]);
  await app.db.raw('analyze payments, accounts');

  // The first run sets them aside (each is read once); every later run must not read them.
  await clearingRun();
  const { statements } = await recorded(clearingRun);
  const cost = await costOf(app.db, statements, /from "payments" as "p" inner join "accounts" as "a"[\s\S]*for update/);
  reportCost('the clearing sweep\'s due payments', cost);
  // A bitmap scan of payments_funds_to_clear (the embedded PostgreSQL plans one) reads only what that partial index
  // holds, due payments not set aside, so it is bounded too; the rows read below are the measure.
  assertIndexed(cost, 'payments', { bitmap: true });
  assert.ok((cost.rowsRead.payments ?? 0) <= 1_000, `payments rows read: ${cost.rowsRead.payments} (${cost.plan})`);
  // Putting back the payments of released accounts finds the accounts with payments set aside (this one, held) by
  // one probe each, and reads none of their payments while they stay held.
  const putBack = await costOf(app.db, statements, /^\s*with recursive aside/);
  reportCost('putting back released accounts\' payments', putBack);
  assert.ok((putBack.rowsRead.payments ?? 0) <= 10, `payments rows read: ${putBack.rowsRead.payments} (${putBack.plan})`);
  const waiting = () => app.db('payments').where({ account_id: o.accountId }).whereNull('funds_cleared_at').whereNotNull('settlement_time_at').count({ n: '*' });
  assert.is(Number((await waiting())[0].n), ROWS, 'held funds stay pending');
});

t('once the hold is lifted, the payments set aside clear on the sweep\'s next run', async () => {
  const o = await makeOwner(app.db);
  const review = (resolve: boolean) => app.request('POST', `/sandbox/accounts/${o.accountId}/compliance_review${resolve ? '/resolve' : ''}`, { token: o.key, version: VERSION });
  assert.is((await review(false)).body.payment_controls.undated_pending_reason, 'compliance_review');
  const count = 1_234; // more than a batch (500)
  // sql-state-write: bulk seed of the held account's settled sales, past their clearing time
  await app.db.raw(`insert into payments (id, account_id, status, billing_reason, currency, subtotal, total, usd_total, settlement_time_at, created_at, updated_at)
    select 'pay_hfr' || lpad(i::text, 8, '0'), ?, 'succeeded', 'one_time', 'usd', 1000, 1000, 1000, now() - interval '30 days' + i * interval '1 second',
      now() - interval '30 days', now()
    from generate_series(1, ?) i`, [o.accountId, count]);
  const state = async () => (await app.db('payments').where({ account_id: o.accountId }).select(
    app.db.raw('count(*) filter (where funds_cleared_at is null)::int as waiting'), app.db.raw('count(*) filter (where funds_held)::int as aside')))[0];
  await clearingRun();
  assert.equal(await state(), { waiting: count, aside: count }, 'held: set aside, not cleared');
  assert.is((await review(true)).body.payment_controls.undated_pending_reason, null);
  await clearingRun();
  assert.equal(await state(), { waiting: 0, aside: 0 }, 'released: all cleared on the next run');
  const ledger = await ledgerOf(app.db, o.accountId);
  const available = await app.db('ledger_balances').where({ ledger_id: ledger, currency: 'usd', bucket: 'available' }).first('amount');
  assert.is(Number(available.amount), count * 1000);
});

t.run();
