// Dispute alerts over HTTP: the sandbox network's early fraud warnings, dispute alerts and rapid dispute resolutions,
// their fees, whether a refund still prevents the chargeback, and what the end of the window does.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { settleRefunds } from '../payments/payment-fixtures.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { endAlertWindow } from '../../handlers/disputes/network.js';
import { reportOnPayment } from '../../sandbox/card_scheme/index.js';
import { ALERT_FEE, balance, DISPUTE_FEE, eventTypes, NET, NETWORK_CARDS, PAID, paidWith, refund, seller, VERSION } from './dispute-fixtures.js';

const t = suite('dispute-alerts');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const get = (key: string, path: string) => app.request('GET', path, { token: key, version: VERSION });
const alertOf = async (key: string, paymentId: string) => {
  const res = await get(key, `/dispute_alerts?payment_id=${paymentId}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.data.length, 1);
  return res.body.data[0];
};
/** A payment whose alert window is three seconds, not ten minutes: the sandbox network's delays are scaled by
 * DISPUTE_NETWORK_SECONDS (handlers/disputes/submit.ts), so the window can pass in real time. */
async function paidWithShortWindow(s: Awaited<ReturnType<typeof seller>>, card: string) {
  const scale = process.env.DISPUTE_NETWORK_SECONDS;
  process.env.DISPUTE_NETWORK_SECONDS = '0.005';
  try {
    return await paidWith(app, s, card);
  } finally {
    if (scale === undefined) delete process.env.DISPUTE_NETWORK_SECONDS;
    else process.env.DISPUTE_NETWORK_SECONDS = scale;
  }
}
/** Waits until the alert's window has passed. */
async function windowPassed(id: string) {
  const { actionable_until } = await app.db('dispute_alerts').where({ id }).first('actionable_until');
  const wait = Date.parse(actionable_until) - Date.now() + 50;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

t('an early fraud warning is never billed and is actionable; a refund prevents the chargeback', async () => {
  const s = await seller(app);
  const p = await paidWithShortWindow(s, NETWORK_CARDS.earlyFraudWarning);
  const a = await alertOf(s.key, p.id);
  assert.match(a.id, /^dspa_/);
  assert.equal([a.type, a.fee_charged, a.actionable, a.outcome, a.account_id, a.payment_id, a.dispute_id], ['early_fraud_warning', false, true, 'pending', s.accountId, p.id, null]);
  assert.equal(a.amount, { amount: PAID, currency: 'usd', decimals: 2, display_decimals: 2 });
  assert.ok(Date.parse(a.reported_at) <= Date.now() && Date.parse(a.actionable_until) > Date.now());
  assert.is(await balance(app, s.ledger, 'pending'), NET);
  await refund(app, s.key, p.id);
  const after = (await get(s.key, `/dispute_alerts/${a.id}`)).body;
  assert.equal([after.actionable, after.outcome], [false, 'prevented']);
  await windowPassed(a.id);
  await endAlertWindow(app.db, a.id);
  assert.is((await app.db('disputes').where({ payment_id: p.id })).length, 0);
  assert.is(await balance(app, s.ledger, 'pending'), NET - PAID);
  assert.equal(await eventTypes(app, a.id), ['dispute_alert.created', 'dispute_alert.updated']);
});

t('a dispute alert is billed 10.00; unrefunded by the end of its window it becomes a dispute', async () => {
  const s = await seller(app);
  const p = await paidWithShortWindow(s, NETWORK_CARDS.disputeAlert);
  const a = await alertOf(s.key, p.id);
  assert.equal([a.type, a.fee_charged, a.actionable], ['dispute_alert', true, true]);
  assert.equal([await balance(app, s.ledger, 'pending'), await balance(app, s.ledger, 'fees')], [NET - ALERT_FEE, 420 + ALERT_FEE]);
  // Before the window ends the job does nothing.
  await endAlertWindow(app.db, a.id);
  assert.is((await get(s.key, `/dispute_alerts/${a.id}`)).body.outcome, 'pending');
  await windowPassed(a.id);
  assert.is((await get(s.key, `/dispute_alerts/${a.id}`)).body.actionable, false);
  await endAlertWindow(app.db, a.id);
  await endAlertWindow(app.db, a.id); // re-run: nothing
  const after = (await get(s.key, `/dispute_alerts/${a.id}`)).body;
  assert.equal([after.outcome, after.actionable], ['disputed', false]);
  const d = (await get(s.key, `/disputes/${after.dispute_id}`)).body;
  assert.equal([d.status, d.reason, d.payment.id], ['needs_response', 'general', p.id]);
  assert.is(await balance(app, s.ledger, 'pending'), NET - ALERT_FEE - PAID - DISPUTE_FEE);
  // A refund after the window no longer changes the alert, but prevents the dispute (before any ruling).
  await refund(app, s.key, p.id);
  assert.is((await get(s.key, `/dispute_alerts/${a.id}`)).body.outcome, 'disputed');
  assert.is((await get(s.key, `/disputes/${d.id}`)).body.status, 'prevented');
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('a rapid dispute resolution refunds the buyer at once, is billed and never actionable; no dispute opens', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.rapidDisputeResolution);
  const a = await alertOf(s.key, p.id);
  assert.equal([a.type, a.fee_charged, a.actionable, a.outcome, a.actionable_until], ['rapid_dispute_resolution', true, false, 'refunded', null]);
  const refunds = await app.db('refunds').where({ payment_id: p.id });
  assert.equal(refunds.map((r) => [r.status, Number(r.amount)]), [['pending', PAID]]);
  await settleRefunds(app, p.id);
  const payment = (await get(s.key, `/payments/${p.id}`)).body;
  assert.is(payment.status, 'refunded');
  assert.is((await app.db('disputes').where({ payment_id: p.id })).length, 0);
  assert.is(await balance(app, s.ledger, 'pending'), NET - ALERT_FEE - PAID);
  await reportOnPayment(app.db, p.id);
  assert.is((await app.db('dispute_alerts').where({ payment_id: p.id })).length, 1);
});

t('list: filters by account, payment, type and creation window; cursor pages; other accounts are 404', async () => {
  const s = await seller(app);
  const efw = await paidWith(app, s, NETWORK_CARDS.earlyFraudWarning);
  const da = await paidWith(app, s, NETWORK_CARDS.disputeAlert);
  const plain = await paidWith(app, s, '4242424242424242');
  const other = await seller(app);
  await paidWith(app, other, NETWORK_CARDS.disputeAlert);
  const all = await get(s.key, '/dispute_alerts');
  assert.equal(all.body.data.map((a: any) => a.payment_id), [da.id, efw.id]);
  assert.equal((await get(s.key, `/dispute_alerts?account_id=${s.accountId}&type=early_fraud_warning`)).body.data.map((a: any) => a.payment_id), [efw.id]);
  assert.equal((await get(s.key, `/dispute_alerts?payment_id=${plain.id}`)).body.data, []);
  const page = await get(s.key, '/dispute_alerts?first=1');
  assert.is(page.body.page_info.has_next_page, true);
  const rest = await get(s.key, `/dispute_alerts?first=1&after=${page.body.page_info.end_cursor}`);
  assert.equal(rest.body.data.map((a: any) => a.payment_id), [efw.id]);
  const since = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
  assert.equal((await get(s.key, `/dispute_alerts?created_after=${since}`)).body.data, []);
  assert.equal((await get(s.key, `/dispute_alerts?created_before=${since}`)).body.data.length, 2);
  assert.is((await get(s.key, `/dispute_alerts?account_id=${other.accountId}`)).status, 404);
  const foreign = (await app.db('dispute_alerts').where({ account_id: other.accountId }).first()).id;
  assert.is((await get(s.key, `/dispute_alerts/${foreign}`)).status, 404);
  const bad = await get(s.key, '/dispute_alerts?type=fraud');
  assert.equal([bad.status, bad.body.error.param], [400, 'type']);
  assert.is((await get(s.key, '/dispute_alerts?created_after=yesterday')).body.error.param, 'created_after');
});

t('settlement queues the network\'s report only for its test cards; the worker knows every network task', async () => {
  const s = await seller(app);
  const jobs = (paymentId: string) => app.db('graphile_worker._private_jobs').where({ key: `dispute_network_report:${paymentId}` });
  const { pay } = await import('../payments/payment-fixtures.js');
  const flagged = await pay(app, s, { amount: PAID, currency: 'usd' }, { card: NETWORK_CARDS.disputeAlert });
  const plain = await pay(app, s, { amount: PAID, currency: 'usd' });
  assert.is((await jobs(flagged.id)).length, 1);
  assert.is((await jobs(plain.id)).length, 0);
  await reportOnPayment(app.db, plain.id);
  assert.is((await app.db('dispute_alerts').where({ payment_id: plain.id })).length, 0);
  const { taskList } = await import('../../wiring/tasks.js');
  const names = Object.keys(taskList(app.db));
  for (const n of ['dispute_network_report', 'dispute_alert_window_end', 'dispute_deadline', 'dispute_ruling', 'dispute_fighter']) assert.ok(names.includes(n), n);
});

t.run();
