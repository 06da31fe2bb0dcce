// Settled payments' funds clear after the clearing period: pending moves to available, once, less refunds; an
// account with an undated pending reason keeps them pending until it is lifted; the worker's sweep does it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeSeller, makeVariant, pay, settleRefunds, VERSION } from '../payments/payment-fixtures.js';
import { balanceRowsOf } from '../helpers/ledger.js';
import { complianceReview } from '../payouts/payout-fixtures.js';
import { clearDueFunds, CLEAR_DUE_FUNDS } from '../../handlers/ledger/clearing.js';
import { schedule, taskList } from '../../wiring/tasks.js';

const t = suite('ledger: funds clearing');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const buckets = async (accountId: string) => Object.fromEntries((await balanceRowsOf(app.db, accountId).where({ currency: 'usd' })
  .whereIn('bucket', ['available', 'pending'])).map((r) => [r.bucket, Number(r.amount)]));
/** The clearing period (two days) passes for this payment. */
const age = (paymentId: string) => app.db('payments').where({ id: paymentId })
  .update({ settlement_time_at: app.db.raw("settlement_time_at - interval '3 days'") }); // sql-state-write: the case is the real-time sweep (clearDueFunds, its cron task), which skips clocked accounts, so real time must have passed the clearing period (the clock path is test/sandbox/clock-timed.test.ts)

t('a settled payment stays pending through the clearing period, then its net amount is available, once', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 1000 });
  const { id } = await pay(app, s, { plan_id: v.id, country: 'US' });
  const net = (await buckets(s.accountId)).pending;
  assert.ok(net > 0 && net < 1000);
  await clearDueFunds(app.db);
  assert.equal(await buckets(s.accountId), { pending: net }, 'not due yet');
  await age(id);
  await clearDueFunds(app.db);
  assert.equal(await buckets(s.accountId), { pending: 0, available: net });
  await clearDueFunds(app.db);
  assert.equal(await buckets(s.accountId), { pending: 0, available: net }, 'cleared once');
  const shown = await app.request('GET', `/accounts/${s.accountId}`, { token: s.key });
  assert.equal([shown.body.balance.available.amount, shown.body.balance.pending.amount], [net, 0]);
});

t('what was refunded before clearing does not clear', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 1000 });
  const { id } = await pay(app, s, { plan_id: v.id, country: 'US' });
  const net = (await buckets(s.accountId)).pending;
  await app.request('POST', `/payments/${id}/refund`, { token: s.key, version: VERSION, body: { partial_amount: 300 } });
  await settleRefunds(app, id);
  await age(id);
  await clearDueFunds(app.db);
  assert.equal(await buckets(s.accountId), { pending: 0, available: net - 300 });
});

t('an account held under review keeps its funds pending; lifting the reason lets the sweep clear them', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 1000 });
  const { id } = await pay(app, s, { plan_id: v.id, country: 'US' });
  const net = (await buckets(s.accountId)).pending;
  await complianceReview(app, s);
  await age(id);
  await clearDueFunds(app.db);
  assert.equal(await buckets(s.accountId), { pending: net });
  await complianceReview(app, s, true);
  // The task the worker runs every minute, run now.
  assert.ok(schedule.crontab.includes(`* * * * * ${CLEAR_DUE_FUNDS}`));
  await (taskList(app.db)[CLEAR_DUE_FUNDS] as (payload: unknown, helpers: unknown) => Promise<void>)({}, {});
  assert.equal(await buckets(s.accountId), { pending: 0, available: net });
});

t.run();
