// The platform's side, run as its jobs would run (without their delays): an unanswered case escalates at
// response_due_at, the review rules for the merchant or charges the payment back; re-runs do nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { escalateUnanswered, reviewCase } from '../../handlers/resolution_center_cases/platform.js';
import { reportOnPayment } from '../../sandbox/card_scheme/index.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { jobsOf, settleRefunds } from '../payments/payment-fixtures.js';
import { call, eventTypes, openCase, PAID, pastDeadline, seller, timeline } from './case-fixtures.js';

const t = suite('resolution-center-platform');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const read = async (key: string, id: string) => (await call(app, key, 'GET', `/resolution_center_cases/${id}`)).body;
const pending = async (accountId: string) =>
  Number((await app.db('ledger_balances').where({ ledger_id: await ledgerOf(app.db, accountId), currency: 'usd', bucket: 'pending' }).first('amount'))?.amount ?? 0);

t('the deadline job escalates only an unanswered case past response_due_at; a re-run does nothing', async () => {
  const s = await seller(app);
  const { c } = await openCase(app, s);
  // An answered case is not escalated by a deadline that has passed.
  const answered = await openCase(app, s);
  await call(app, s.key, 'POST', `/resolution_center_cases/${answered.c.id}/respond`, { message: 'On its way.' });
  await escalateUnanswered(app.db, c.id);
  assert.is((await read(s.key, c.id)).status, 'awaiting_merchant', 'before the deadline nothing moves');
  const { clockId, onClock } = await pastDeadline(app, s);
  await onClock(() => escalateUnanswered(app.db, c.id));
  const e = await read(s.key, c.id);
  assert.equal([e.status, e.escalated, e.response_due_at, e.available_actions], ['awaiting_platform', true, null, ['refund']]);
  // The review is queued, to wait for the clock (not due yet by its time).
  const review = await app.db('clock_timers').where({ clock_id: clockId, job_key: `resolution_case_review:${c.id}` });
  assert.is(review.length + (await jobsOf(app, 'resolution_case_review', c.id)).length, 1);
  await onClock(() => escalateUnanswered(app.db, c.id));
  assert.equal(await timeline(app, s.key, c.id), ['customer:opened', 'system:escalated']);
  assert.equal(await eventTypes(app, c.id), ['resolution_center_case.created', 'resolution_center_case.escalated']);
  await onClock(() => escalateUnanswered(app.db, answered.c.id));
  assert.is((await read(s.key, answered.c.id)).status, 'awaiting_customer');
});

t('review without a winning merchant message: the payment is charged back (a dispute takes the amount and fee)', async () => {
  const s = await seller(app);
  const { payment, c } = await openCase(app, s, { reason: 'unauthorized_transaction' });
  const before = await pending(s.accountId);
  await reviewCase(app.db, c.id);
  assert.is((await read(s.key, c.id)).status, 'awaiting_merchant', 'only an escalated case is reviewed');
  // Escalated by the merchant without a winning message (the deadline's escalation is the test above).
  const esc = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/escalate`, { message: 'Please decide.' });
  assert.is(esc.status, 200, JSON.stringify(esc.body));
  await reviewCase(app.db, c.id);
  const r = await read(s.key, c.id);
  assert.equal([r.status, r.outcome, r.available_actions], ['closed', 'disputed', []]);
  const dispute = await app.db('disputes').where({ payment_id: payment.id }).first();
  assert.equal([r.dispute_id, dispute.reason, Number(dispute.amount)], [dispute.id, 'fraudulent', PAID]);
  assert.is(await pending(s.accountId), before - PAID - 1_500);
  await reviewCase(app.db, c.id);
  assert.is((await app.db('disputes').where({ payment_id: payment.id })).length, 1);
  assert.is(await pending(s.accountId), before - PAID - 1_500);
  assert.equal(await timeline(app, s.key, c.id), ['customer:opened', 'merchant:escalated', 'platform:charged_back']);
  assert.equal(await eventTypes(app, c.id), ['resolution_center_case.created', 'resolution_center_case.escalated', 'resolution_center_case.closed']);
});

t('review with a merchant message holding winning_evidence: merchant_won, no money moves', async () => {
  const s = await seller(app);
  const { payment, c } = await openCase(app, s);
  await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/respond`, { message: 'Delivered, signed for: winning_evidence' });
  const esc = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/escalate`, { message: 'Please decide.' });
  assert.equal([esc.status, esc.body.status, esc.body.escalated], [200, 'awaiting_platform', true]);
  const twice = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/escalate`, {});
  assert.equal([twice.status, twice.body.error.type, twice.body.error.param], [400, 'invalid_state', 'status']);
  const respond = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/respond`, { message: 'x' });
  assert.is(respond.status, 400);
  const before = await pending(s.accountId);
  await reviewCase(app.db, c.id);
  const r = await read(s.key, c.id);
  assert.equal([r.status, r.outcome, r.dispute_id], ['closed', 'merchant_won', null]);
  assert.is(await app.db('disputes').where({ payment_id: payment.id }).first(), undefined);
  assert.is(await pending(s.accountId), before);
});

t('a refund while the platform reviews closes the case refunded; the review then does nothing', async () => {
  const s = await seller(app);
  const { payment, c } = await openCase(app, s);
  await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/escalate`, {});
  const res = await call(app, s.key, 'POST', `/resolution_center_cases/${c.id}/refund`, {});
  assert.equal([res.status, res.body.outcome], [200, 'refunded']);
  await reviewCase(app.db, c.id);
  assert.is((await read(s.key, c.id)).outcome, 'refunded');
  assert.is(await app.db('disputes').where({ payment_id: payment.id }).first(), undefined);
});

t('a payment the network charged back while the case was reviewed: the case closes disputed on that dispute', async () => {
  const s = await seller(app);
  const { paid } = await import('./case-fixtures.js');
  const p = await paid(app, s, '4000000000000259');
  const opened = await call(app, s.key, 'POST', '/sandbox/resolution_center_cases', { payment_id: p.id, reason: 'item_not_received', message: 'm' });
  assert.is(opened.status, 201, JSON.stringify(opened.body));
  await call(app, s.key, 'POST', `/resolution_center_cases/${opened.body.id}/escalate`, {});
  await reportOnPayment(app.db, p.id);
  const dispute = await app.db('disputes').where({ payment_id: p.id }).first();
  await reviewCase(app.db, opened.body.id);
  const r = await read(s.key, opened.body.id);
  assert.equal([r.outcome, r.dispute_id], ['disputed', dispute.id]);
  assert.is((await app.db('disputes').where({ payment_id: p.id })).length, 1);
  // A closed case refuses its refund.
  const refused = await call(app, s.key, 'POST', `/resolution_center_cases/${opened.body.id}/refund`, {});
  assert.equal([refused.status, refused.body.error.param], [400, 'status']);
  assert.equal(await timeline(app, s.key, opened.body.id), ['customer:opened', 'merchant:escalated', 'system:charged_back']);
});

t('outside the case: the network\'s chargeback closes an open case disputed; a full refund closes it refunded, a partial one does not', async () => {
  const s = await seller(app);
  const { paid } = await import('./case-fixtures.js');
  const p = await paid(app, s, '4000000000000259');
  const opened = await call(app, s.key, 'POST', '/sandbox/resolution_center_cases', { payment_id: p.id, reason: 'unauthorized_transaction', message: 'm' });
  await reportOnPayment(app.db, p.id);
  const dispute = await app.db('disputes').where({ payment_id: p.id }).first();
  const charged = await read(s.key, opened.body.id);
  assert.equal([charged.status, charged.outcome, charged.dispute_id, charged.escalated], ['closed', 'disputed', dispute.id, false]);
  assert.equal(await eventTypes(app, opened.body.id), ['resolution_center_case.created', 'resolution_center_case.closed']);

  const { c, payment } = await openCase(app, s);
  assert.is((await call(app, s.key, 'POST', `/payments/${payment.id}/refund`, { partial_amount: 1_000 })).status, 200);
  await settleRefunds(app, payment.id);
  assert.is((await read(s.key, c.id)).status, 'awaiting_merchant');
  assert.is((await call(app, s.key, 'POST', `/payments/${payment.id}/refund`, {})).status, 200);
  await settleRefunds(app, payment.id);
  const refunded = await read(s.key, c.id);
  const last = await app.db('refunds').where({ payment_id: payment.id }).orderBy('created_at', 'desc').first('id');
  assert.equal([refunded.status, refunded.outcome, refunded.refund?.id, refunded.refund?.status], ['closed', 'refunded', last.id, 'succeeded']);
  assert.equal(await timeline(app, s.key, c.id), ['customer:opened', 'system:refunded']);
});

t.run();
