// Memberships over time, on a sandbox clock, through the API: trials convert, renewals are charged on the buyer's
// saved card, failed renewals are retried on the documented schedule (3, 5 and 7 days) and lapse, a card saved since
// recovers them, scheduled cancellations, extensions, pauses, fixed terms and one-time grants end as documented.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { CARDS, makeSeller } from '../payments/payment-fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { DAY, HOUR, iso, lifecycleApi } from './lifecycle-fixtures.js';
import { startReceiver } from '../webhooks/receiver.js';
import { until } from '../helpers/poll.js';
import { postingsOf } from '../helpers/ledger.js';
import { runOnClock } from '../../runtime/clock.js';
import { membershipPeriodStep } from '../../handlers/memberships/period-step.js';
import { membershipPeriodSweep } from '../../handlers/memberships/period-sweep.js';

const t = suite('membership lifecycle on a sandbox clock');
let app: TestApp;
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

const api = () => lifecycleApi(app);
const call: ReturnType<typeof lifecycleApi>['call'] = (...a) => api().call(...a);
const ok: ReturnType<typeof lifecycleApi>['ok'] = (...a) => api().ok(...a);
const shop = () => api().shop();
const advanceTo: ReturnType<typeof lifecycleApi>['advanceTo'] = (...a) => api().advanceTo(...a);
const variant: ReturnType<typeof lifecycleApi>['variant'] = (...a) => api().variant(...a);
const membership: ReturnType<typeof lifecycleApi>['membership'] = (...a) => api().membership(...a);
const settled: ReturnType<typeof lifecycleApi>['settled'] = (...a) => api().settled(...a);
const buy: ReturnType<typeof lifecycleApi>['buy'] = (...a) => api().buy(...a);
const renewals: ReturnType<typeof lifecycleApi>['renewals'] = (...a) => api().renewals(...a);
const saveCard: ReturnType<typeof lifecycleApi>['saveCard'] = (...a) => api().saveCard(...a);

const eventsOf = async (type: string, membershipId: string) =>
  app.db('events').where({ type }).whereRaw("data->>'id' = ?", [membershipId]).orderBy('id');

t('a trial converts at its end and the plan renews every period for a year, each period from the end of the last', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, trial_period_days: 7, initial_price: 100, renewal_price: 2000 });
  const { membershipId } = await buy(s, v.id, CARDS.succeeds, { country: 'DE' });
  let m = await membership(s, membershipId);
  assert.is(m.status, 'trialing');
  assert.is(Date.parse(m.current_period_end), s.t0 + 7 * DAY);

  await advanceTo(s, s.t0 + 7 * DAY + HOUR);
  m = await membership(s, membershipId);
  assert.is(m.status, 'active');
  assert.is(Date.parse(m.current_period_start), s.t0 + 7 * DAY);
  assert.is(Date.parse(m.current_period_end), s.t0 + 37 * DAY);
  const [first] = await renewals(s, membershipId);
  assert.is(first.status, 'succeeded');
  assert.is(first.subtotal.amount, 2000);
  assert.is(first.tax_amount.amount, 380, 'taxed by the purchase country (DE, 19%)');
  assert.is(first.membership_id, membershipId);
  assert.is((await eventsOf('membership.activated', membershipId)).length, 2, 'created, then the trial converted');

  await advanceTo(s, s.t0 + 365 * DAY);
  const paid = await renewals(s, membershipId);
  assert.is(paid.length, 12, 'the trial conversion and eleven renewals');
  assert.ok(paid.every((p) => p.status === 'succeeded'));
  m = await membership(s, membershipId);
  assert.is(m.status, 'active');
  assert.is(Date.parse(m.current_period_start), s.t0 + (7 + 11 * 30) * DAY);
  assert.is(Date.parse(m.current_period_end), s.t0 + (7 + 12 * 30) * DAY);
  assert.is((await eventsOf('membership.renewed', membershipId)).length, 12);
  // The ledger balances: every entry of the account's postings sums to zero across its ledgers.
  const entryIds = await postingsOf(app.db, s.accountId).distinct('entry_id').pluck('entry_id');
  assert.ok(entryIds.length >= 13, 'the purchase and each renewal are posted');
  const sums = await app.db('ledger_postings').whereIn('entry_id', entryIds).groupBy('entry_id', 'currency')
    .select('entry_id', app.db.raw('sum(amount)::bigint as total'));
  assert.ok(sums.every((r: any) => Number(r.total) === 0), JSON.stringify(sums.filter((r: any) => Number(r.total) !== 0)));
});

t('a card that needs the buyer fails off-session: past_due, retried 3, 5 and 7 days after, then expired', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 1500, renewal_price: 1500 });
  const { membershipId } = await buy(s, v.id, CARDS.challenge);
  const due = s.t0 + 30 * DAY;
  await advanceTo(s, due + HOUR);
  let m = await membership(s, membershipId);
  assert.is(m.status, 'past_due');
  let [renewal] = await renewals(s, membershipId);
  assert.is(renewal.status, 'failed');
  assert.is(renewal.failure_code, 'authentication_required');
  assert.is(Date.parse(renewal.next_payment_attempt_at), due + 3 * DAY);
  assert.is((await eventsOf('membership.past_due', membershipId)).length, 1);

  // A manual retry on the same card fails too, and the schedule stays anchored on the due date.
  await ok(s.key, 'POST', `/payments/${renewal.id}/retry`);
  renewal = await settled(s, renewal.id);
  assert.is(renewal.status, 'failed');
  assert.is(Date.parse(renewal.next_payment_attempt_at), due + 3 * DAY);

  for (const [at, next] of [[3, 5], [5, 7]]) {
    await advanceTo(s, due + at * DAY + HOUR);
    [renewal] = await renewals(s, membershipId);
    assert.is(renewal.status, 'failed');
    assert.is(Date.parse(renewal.last_payment_attempt_at), due + at * DAY);
    assert.is(Date.parse(renewal.next_payment_attempt_at), due + next * DAY);
    assert.is((await membership(s, membershipId)).status, 'past_due');
  }
  await advanceTo(s, due + 7 * DAY + HOUR);
  m = await membership(s, membershipId);
  assert.is(m.status, 'expired');
  assert.is((await renewals(s, membershipId)).length, 1, 'one payment for the period, retried');
  assert.is((await eventsOf('membership.expired', membershipId)).length, 1);
  const member = await ok(s.key, 'GET', `/members/${m.member_id}`);
  assert.is(member.status, 'left');
  // Nothing more happens to an expired membership.
  await advanceTo(s, due + 60 * DAY);
  assert.is((await renewals(s, membershipId)).length, 1);
});

t('a card saved during dunning recovers the renewal at the next retry: active for the period it pays', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 1500, renewal_price: 1500 });
  const { membershipId } = await buy(s, v.id, CARDS.challenge);
  const due = s.t0 + 30 * DAY;
  await advanceTo(s, due + HOUR);
  const m = await membership(s, membershipId);
  assert.is(m.status, 'past_due');
  await saveCard(s, m.member_id, CARDS.succeeds);
  await advanceTo(s, due + 3 * DAY + HOUR);
  const [renewal] = await renewals(s, membershipId);
  assert.is(renewal.status, 'succeeded');
  assert.is(renewal.payment_instrument.last4, '4242');
  const recovered = await membership(s, membershipId);
  assert.is(recovered.status, 'active');
  assert.is(Date.parse(recovered.current_period_start), due);
  assert.is(Date.parse(recovered.current_period_end), due + 30 * DAY);
  assert.is((await eventsOf('membership.renewed', membershipId)).length, 1);
});

t('POST /payments/{id}/retry on a failed renewal, after the buyer saved a card, returns the membership to active', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 1500, renewal_price: 1500 });
  const { membershipId } = await buy(s, v.id, CARDS.challenge);
  await advanceTo(s, s.t0 + 30 * DAY + HOUR);
  const m = await membership(s, membershipId);
  await saveCard(s, m.member_id, CARDS.succeeds);
  const [failed] = await renewals(s, membershipId);
  await ok(s.key, 'POST', `/payments/${failed.id}/retry`);
  assert.is((await settled(s, failed.id)).status, 'succeeded');
  const back = await membership(s, membershipId);
  assert.is(back.status, 'active');
  assert.is(Date.parse(back.current_period_end), s.t0 + 60 * DAY);
});

t('cancel at period end: canceled at the end, with no charge', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 500 });
  const { membershipId } = await buy(s, v.id);
  await ok(s.key, 'POST', `/memberships/${membershipId}/cancel`, { cancel_at_period_end: true });
  await advanceTo(s, s.t0 + 30 * DAY - HOUR);
  assert.is((await membership(s, membershipId)).status, 'active');
  await advanceTo(s, s.t0 + 30 * DAY + HOUR);
  const m = await membership(s, membershipId);
  assert.is(m.status, 'canceled');
  assert.is(Date.parse(m.canceled_at), s.t0 + 30 * DAY);
  assert.is((await renewals(s, membershipId)).length, 0);
});

t('extend moves the next charge; the next period starts at the extended end', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 500 });
  const { membershipId } = await buy(s, v.id);
  await ok(s.key, 'POST', `/memberships/${membershipId}/extend`, { days: 10 });
  await advanceTo(s, s.t0 + 30 * DAY + HOUR);
  assert.is((await renewals(s, membershipId)).length, 0);
  await advanceTo(s, s.t0 + 40 * DAY + HOUR);
  assert.is((await renewals(s, membershipId)).length, 1);
  const m = await membership(s, membershipId);
  assert.is(Date.parse(m.current_period_start), s.t0 + 40 * DAY);
  assert.is(Date.parse(m.current_period_end), s.t0 + 70 * DAY);
});

t('pause stops billing; resume starts a new period at once, charged then', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 500 });
  const { membershipId } = await buy(s, v.id);
  await ok(s.key, 'POST', `/memberships/${membershipId}/pause`);
  await advanceTo(s, s.t0 + 45 * DAY);
  assert.is((await membership(s, membershipId)).status, 'paused');
  assert.is((await renewals(s, membershipId)).length, 0);
  await ok(s.key, 'POST', `/memberships/${membershipId}/resume`);
  await advanceTo(s, s.t0 + 45 * DAY + HOUR);
  const [charged] = await renewals(s, membershipId);
  assert.is(charged.status, 'succeeded');
  const m = await membership(s, membershipId);
  assert.is(m.status, 'active');
  assert.is(Date.parse(m.current_period_start), s.t0 + 45 * DAY);
  assert.is(Date.parse(m.current_period_end), s.t0 + 75 * DAY);
});

t('a pause with resumes_at resumes by itself then, charging a new period; one in the past is refused', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 700 });
  const { membershipId } = await buy(s, v.id);
  const past = await call(s.key, 'POST', `/memberships/${membershipId}/pause`, { resumes_at: iso(s.t0 - HOUR) });
  assert.is(past.status, 400);
  assert.is(past.body.error.param, 'resumes_at');
  const paused = await ok(s.key, 'POST', `/memberships/${membershipId}/pause`, { resumes_at: iso(s.t0 + 40 * DAY) });
  assert.is(paused.status, 'paused');
  assert.is(paused.resumes_at, iso(s.t0 + 40 * DAY));
  await advanceTo(s, s.t0 + 40 * DAY - HOUR);
  assert.is((await membership(s, membershipId)).status, 'paused', 'not before resumes_at, and no renewal at the period end meanwhile');
  assert.is((await renewals(s, membershipId)).length, 0);
  await advanceTo(s, s.t0 + 40 * DAY + HOUR);
  const m = await membership(s, membershipId);
  assert.is(m.status, 'active');
  assert.is(m.resumes_at, null);
  assert.is(Date.parse(m.current_period_start), s.t0 + 40 * DAY);
  assert.is(Date.parse(m.current_period_end), s.t0 + 70 * DAY);
  const [charged] = await renewals(s, membershipId);
  assert.is(charged.status, 'succeeded');
  assert.is(charged.subtotal.amount, 700);
  assert.is((await eventsOf('membership.resumed', membershipId)).length, 1);
});

t('pausing with void_payments voids the failed renewal: payment.canceled, and it can no longer be retried', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 500 });
  const { membershipId } = await buy(s, v.id, CARDS.challenge);
  await advanceTo(s, s.t0 + 30 * DAY + HOUR);
  assert.is((await membership(s, membershipId)).status, 'past_due');
  const [failed] = await renewals(s, membershipId);
  assert.is(failed.status, 'failed');
  await ok(s.key, 'POST', `/memberships/${membershipId}/pause`, { void_payments: true });
  const voided = await ok(s.key, 'GET', `/payments/${failed.id}`);
  assert.is(voided.status, 'canceled');
  assert.is(voided.next_payment_attempt_at, null);
  const canceled = await app.db('events').where({ type: 'payment.canceled' }).whereRaw("data->>'id' = ?", [failed.id]);
  assert.is(canceled.length, 1);
  const retried = await call(s.key, 'POST', `/payments/${failed.id}/retry`);
  assert.is(retried.status, 400);
  await advanceTo(s, s.t0 + 45 * DAY);
  assert.is((await membership(s, membershipId)).status, 'paused', 'no retry ran while paused');
});

t('a fixed term completes at the end of the period its last required payment paid', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 500, split_pay_required_payments: 3 });
  assert.is(v.split_pay_required_payments, 3);
  const { membershipId } = await buy(s, v.id);
  await advanceTo(s, s.t0 + 89 * DAY);
  assert.is((await renewals(s, membershipId)).length, 2);
  assert.is((await membership(s, membershipId)).status, 'active');
  await advanceTo(s, s.t0 + 91 * DAY);
  const m = await membership(s, membershipId);
  assert.is(m.status, 'completed');
  assert.is((await renewals(s, membershipId)).length, 2, 'no fourth payment');
  assert.is((await eventsOf('membership.completed', membershipId)).length, 1);
});

t('a one_time grant with expiration_days expires then; without it, it never does', async () => {
  const s = await shop();
  const expiring = await variant(s, { plan_type: 'one_time', initial_price: 500, expiration_days: 10 });
  assert.is(expiring.expiration_days, 10);
  const forever = await variant(s, { plan_type: 'one_time', initial_price: 500 });
  const a = await buy(s, expiring.id);
  const b = await buy(s, forever.id);
  assert.is(Date.parse((await membership(s, a.membershipId)).current_period_end), s.t0 + 10 * DAY);
  assert.is((await membership(s, b.membershipId)).current_period_end, null);
  await advanceTo(s, s.t0 + 10 * DAY + HOUR);
  assert.is((await membership(s, a.membershipId)).status, 'expired');
  assert.is((await membership(s, b.membershipId)).status, 'active');
  assert.is((await eventsOf('membership.expired', a.membershipId)).length, 1);
});

t('every lifecycle move is delivered as a webhook, rendered at each subscription\'s pin', async () => {
  const receiver = await startReceiver();
  try {
    const s = await shop();
    const events = ['membership.activated', 'membership.renewed', 'membership.past_due', 'membership.expired', 'payment.succeeded', 'payment.failed'];
    const hook = async (pin: string) => (await ok(s.key, 'POST', '/webhooks', { account_id: s.accountId, url: receiver.url, events, api_version_date: pin })).id;
    const [head, pinned] = [await hook(headVersion()), await hook('2026-07-20')];
    const v = await variant(s, { plan_type: 'renewal', billing_period: 30, trial_period_days: 7, initial_price: 100, renewal_price: 1500 });
    const { membershipId } = await buy(s, v.id);
    await advanceTo(s, s.t0 + 7 * DAY + HOUR);
    const delivered = (webhookId: string, type: string) => until(async () => {
      const rows = await app.db('webhook_deliveries').where({ webhook_id: webhookId, status: 'succeeded' }).pluck('id');
      return receiver.received.find((r) => rows.includes(r.id) && r.json.type === type && r.json.data.id === membershipId);
    }, `${type} delivered to ${webhookId}`, { timeoutMs: 20_000, everyMs: 100 });
    const atHead = await delivered(head, 'membership.renewed');
    assert.is(atHead.json.data.account_id, s.accountId);
    assert.is(atHead.json.data.status, 'active');
    assert.is(Date.parse(atHead.json.data.current_period_end), s.t0 + 37 * DAY);
    const atPin = await delivered(pinned, 'membership.renewed');
    assert.is(atPin.json.data.company_id, s.accountId, 'the 2026-07-20 shape');
    assert.not.ok('account_id' in atPin.json.data);
    await delivered(pinned, 'membership.activated');
  } finally {
    await receiver.close();
  }
});

t('expiration_days is for one_time variants, split_pay_required_payments for renewal ones: 400 naming the field', async () => {
  const s = await makeSeller(app.db);
  const product = await ok(s.key, 'POST', '/products', { account_id: s.accountId, title: 'Course' });
  const create = (body: Record<string, unknown>) => call(s.key, 'POST', '/variants', { account_id: s.accountId, product_id: product.id, ...body });
  const refused = (res: { status: number; body: any }, param: string) => {
    assert.is(res.status, 400, JSON.stringify(res.body));
    assert.is(res.body.error.param, param);
  };
  refused(await create({ plan_type: 'renewal', billing_period: 30, expiration_days: 10 }), 'expiration_days');
  refused(await create({ plan_type: 'one_time', split_pay_required_payments: 3 }), 'split_pay_required_payments');
  refused(await create({ plan_type: 'one_time', expiration_days: 0 }), 'expiration_days');
  refused(await create({ plan_type: 'renewal', billing_period: 30, split_pay_required_payments: 0 }), 'split_pay_required_payments');
  const oneTime = (await create({ plan_type: 'one_time', expiration_days: 30 })).body;
  assert.is(oneTime.expiration_days, 30);
  assert.is(oneTime.split_pay_required_payments, null);
  const renewal = (await create({ plan_type: 'renewal', billing_period: 30 })).body;
  assert.is(renewal.expiration_days, null);
  assert.is(renewal.split_pay_required_payments, null);
  refused(await call(s.key, 'PATCH', `/variants/${renewal.id}`, { expiration_days: 5 }), 'expiration_days');
  refused(await call(s.key, 'PATCH', `/variants/${oneTime.id}`, { split_pay_required_payments: 2 }), 'split_pay_required_payments');
  assert.is((await ok(s.key, 'PATCH', `/variants/${renewal.id}`, { split_pay_required_payments: 6 })).split_pay_required_payments, 6);
  assert.is((await ok(s.key, 'PATCH', `/variants/${oneTime.id}`, { expiration_days: null })).expiration_days, null);
});

t('a due membership stepped by several runs at once is charged once for its period', async () => {
  const s = await shop();
  const v = await variant(s, { plan_type: 'renewal', billing_period: 30, initial_price: 500, renewal_price: 500 });
  const { membershipId } = await buy(s, v.id);
  await ok(s.key, 'POST', `/memberships/${membershipId}/pause`);
  await ok(s.key, 'POST', `/memberships/${membershipId}/resume`); // due at once: the next sweep charges it
  const { due_at: dueAt } = await app.db('memberships').where({ id: membershipId }).first('due_at');
  await runOnClock({ clockId: s.clockId, now: iso(s.t0) }, () => Promise.all([
    membershipPeriodStep(app.db, membershipId, dueAt), membershipPeriodStep(app.db, membershipId, dueAt),
    membershipPeriodSweep.run(app.db), membershipPeriodSweep.run(app.db),
  ]));
  await advanceTo(s, s.t0 + HOUR);
  const charged = await renewals(s, membershipId);
  assert.is(charged.length, 1);
  // The charge is collected by the worker, which may not have reached it when the advance is done.
  assert.is((await settled(s, charged[0].id)).status, 'succeeded');
  assert.is((await membership(s, membershipId)).status, 'active');
});

t.run();
