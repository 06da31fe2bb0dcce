// Disputes and alerts at older pins: before entry 52 (2026-07-30) the official client's shape and paths, before
// entry 14 (2026-08-28) a prevented dispute shows as closed.
import { laterOnClock } from '../helpers/later-on-clock.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { ruleOnDispute } from '../../sandbox/card_scheme/index.js';
import { renderAt } from '../../runtime/render.js';
import { disputeOf, NETWORK_CARDS, OLD, PAID, paidWith, refund, seller, VERSION } from './dispute-fixtures.js';

const t = suite('dispute-versions');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const at = (version: string, key: string, method: string, path: string, body?: unknown) => app.request(method, path, { token: key, version, body });
const BEFORE_14 = '2026-08-25';

t('before entry 52: the official client\'s shape, company_id filter, update_evidence and submit_evidence', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const d = await disputeOf(app, p.id);
  const old = await at(OLD, s.key, 'GET', `/disputes/${d.id}`);
  assert.is(old.status, 200, JSON.stringify(old.body));
  assert.equal(old.body, {
    id: d.id, amount: PAID / 100, currency: 'usd', company: { id: s.accountId }, product: null, plan: null, payment: { id: p.id },
    reason: 'fraudulent', status: 'needs_response', needs_response_by: old.body.needs_response_by, editable: true, visa_rdr: false,
    created_at: old.body.created_at, access_activity_log: null, billing_address: null, cancellation_policy_disclosure: null,
    customer_email_address: null, customer_name: null, notes: null, product_description: null, refund_policy_disclosure: null,
    refund_refusal_explanation: null, service_date: null,
  });
  assert.is(old.body.needs_response_by, (await at(VERSION, s.key, 'GET', `/disputes/${d.id}`)).body.response_due_at);
  const list = await at(OLD, s.key, 'GET', `/disputes?company_id=${s.accountId}`);
  assert.equal([list.status, list.body.data.map((x: any) => x.id)], [200, [d.id]]);
  assert.is((await at(VERSION, s.key, 'GET', `/disputes?company_id=${s.accountId}`)).status, 400);
  // PATCH and the summary did not exist; update_evidence takes the flat fields.
  assert.is((await at(OLD, s.key, 'PATCH', `/disputes/${d.id}`, { evidence: { notes: 'x' } })).status, 404);
  assert.is((await at(OLD, s.key, 'GET', '/disputes/summary')).status, 404);
  const upd = await at(OLD, s.key, 'POST', `/disputes/${d.id}/update_evidence`, { notes: 'winning_evidence', customer_name: 'Ada' });
  assert.is(upd.status, 200, JSON.stringify(upd.body));
  assert.equal([upd.body.notes, upd.body.customer_name, upd.body.editable], ['winning_evidence', 'Ada', true]);
  const nested = await at(OLD, s.key, 'POST', `/disputes/${d.id}/update_evidence`, { evidence: { notes: 'x' } });
  assert.is(nested.status, 400);
  // submit_evidence at the older path; the newer path is unknown there.
  assert.is((await at(OLD, s.key, 'POST', `/disputes/${d.id}/submit`)).status, 404);
  const sub = await at(OLD, s.key, 'POST', `/disputes/${d.id}/submit_evidence`);
  assert.is(sub.status, 200, JSON.stringify(sub.body));
  assert.equal([sub.body.status, sub.body.editable], ['under_review', false]);
  const late = await at(OLD, s.key, 'POST', `/disputes/${d.id}/update_evidence`, { notes: 'x' });
  assert.equal([late.status, late.body.error.type], [400, 'invalid_state']);
  await ruleOnDispute(app.db, d.id);
  assert.is((await at(OLD, s.key, 'GET', `/disputes/${d.id}`)).body.status, 'won');
  // The official client's update_evidence is still served at the latest version, deprecated in favour of PATCH.
  const q = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const e = await disputeOf(app, q.id);
  const head = await at(VERSION, s.key, 'POST', `/disputes/${e.id}/update_evidence`, { notes: 'n' });
  assert.equal([head.status, head.body.evidence.notes, head.headers.get('deprecation')], [200, 'n', 'true']);
});

t('before entry 14 a prevented dispute is closed, in events and summaries too; at the latest version prevented', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const d = await disputeOf(app, p.id);
  const q = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const e = await disputeOf(app, q.id);
  await refund(app, s.key, p.id);
  // Seven days and an hour later for the seller (its sandbox clock): e passed its response_due_at unanswered.
  const { onClock } = await laterOnClock(app, s, 7 * 86_400_000 + 3_600_000);
  const { closeUnanswered } = await import('../../handlers/disputes/network.js');
  await onClock(() => closeUnanswered(app.db, e.id));
  assert.is((await at(VERSION, s.key, 'GET', `/disputes/${d.id}`)).body.status, 'prevented');
  assert.is((await at(BEFORE_14, s.key, 'GET', `/disputes/${d.id}`)).body.status, 'closed');
  assert.is((await at(OLD, s.key, 'GET', `/disputes/${d.id}`)).body.status, 'closed');
  const usd = (amount: number) => ({ amount, currency: 'usd', decimals: 2, display_decimals: 2 });
  const head = await at(VERSION, s.key, 'GET', `/disputes/summary?account_id=${s.accountId}`);
  assert.equal(head.body.totals, [{ status: 'prevented', count: 1, amount: usd(PAID) }, { status: 'closed', count: 1, amount: usd(PAID) }]);
  const older = await at(BEFORE_14, s.key, 'GET', `/disputes/summary?account_id=${s.accountId}`);
  assert.equal(older.body.totals, [{ status: 'closed', count: 2, amount: usd(2 * PAID) }]);
  const closedList = async (version: string) =>
    (await at(version, s.key, 'GET', `/disputes?status=closed`)).body.data.map((x: any) => x.id).sort();
  assert.equal(await closedList(VERSION), [e.id]);
  assert.equal(await closedList(BEFORE_14), [d.id, e.id].sort());
  assert.equal((await at(VERSION, s.key, 'GET', `/disputes?status=prevented`)).body.data.map((x: any) => x.id), [d.id]);
  assert.is((await at(BEFORE_14, s.key, 'GET', `/disputes?status=prevented`)).status, 400);
  const event = await app.db('events').where({ type: 'dispute.prevented' }).whereRaw("data->>'id' = ?", [d.id]).first();
  assert.is((renderAt('Dispute', event.data, BEFORE_14) as any).status, 'closed');
});

t('dispute alerts before entry 52: alert_type, charge_for_alert, payment and dispute objects, company_id', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.earlyFraudWarning);
  const q = await paidWith(app, s, NETWORK_CARDS.disputeAlert);
  const list = await at(OLD, s.key, 'GET', `/dispute_alerts?company_id=${s.accountId}`);
  assert.is(list.status, 200, JSON.stringify(list.body));
  assert.equal(list.body.data.map((a: any) => [a.alert_type, a.charge_for_alert, a.amount, a.currency, a.payment.id, a.dispute]),
    [['dispute', true, PAID / 100, 'usd', q.id, null], ['fraud', false, PAID / 100, 'usd', p.id, null]]);
  const one = await at(OLD, s.key, 'GET', `/dispute_alerts/${list.body.data[1].id}`);
  assert.equal(Object.keys(one.body).sort(), ['alert_type', 'amount', 'charge_for_alert', 'created_at', 'currency', 'dispute', 'id', 'payment', 'transaction_date']);
  assert.is((await at(OLD, s.key, 'GET', `/dispute_alerts?account_id=${s.accountId}`)).status, 400);
});

t.run();
