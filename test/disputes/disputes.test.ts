// Disputes over HTTP at the latest version: the sandbox network opens them, evidence is edited and submitted, the
// network rules; the state machine's refusals; the ledger effect of each outcome, to the minor unit.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { viewerKey } from '../payments/payment-fixtures.js';
import { laterOnClock } from '../helpers/later-on-clock.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { closeUnanswered } from '../../handlers/disputes/network.js';
import { ruleOnDispute } from '../../sandbox/card_scheme/index.js';
import { clearDueFunds } from '../../handlers/ledger/clearing.js';
import { balance, DISPUTE_FEE, disputeOf, eventTypes, NET, NETWORK_CARDS, PAID, paidWith, refund, seller, VERSION } from './dispute-fixtures.js';

const t = suite('disputes');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const get = (key: string, path: string) => app.request('GET', path, { token: key, version: VERSION });
const patch = (key: string, id: string, body: unknown) => app.request('PATCH', `/disputes/${id}`, { token: key, version: VERSION, body });
const submit = (key: string, id: string) => app.request('POST', `/disputes/${id}/submit`, { token: key, version: VERSION });

t('a chargeback opens a dispute: the amount and the 15.00 fee leave pending; the resource', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const row = await disputeOf(app, p.id);
  assert.equal([await balance(app, s.ledger, 'pending'), await balance(app, s.ledger, 'fees')], [NET - PAID - DISPUTE_FEE, 420 + DISPUTE_FEE]);
  const res = await get(s.key, `/disputes/${row.id}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  const d = res.body;
  assert.match(d.id, /^dspt_/);
  assert.equal([d.account_id, d.payment.id, d.payment.status, d.buyer.id, d.status, d.reason, d.evidence_submitted_at, d.evidence_submitted_by, d.resolved_at],
    [s.accountId, p.id, 'succeeded', p.buyerId, 'needs_response', 'fraudulent', null, null, null]);
  assert.equal(d.amount, { amount: PAID, currency: 'usd', decimals: 2, display_decimals: 2 });
  assert.equal(d.fee, { amount: DISPUTE_FEE, currency: 'usd', decimals: 2, display_decimals: 2 });
  assert.equal(Object.values(d.evidence), Array(10).fill(null));
  const days = (Date.parse(d.response_due_at) - Date.parse(d.created_at)) / 86_400_000;
  assert.is(days, 7);
  assert.equal(await eventTypes(app, row.id), ['dispute.created']);
  // Reporting again (a re-run job) does nothing.
  const { reportOnPayment } = await import('../../sandbox/card_scheme/index.js');
  await reportOnPayment(app.db, p.id);
  assert.is((await app.db('disputes').where({ payment_id: p.id })).length, 1);
  assert.is(await balance(app, s.ledger, 'pending'), NET - PAID - DISPUTE_FEE);
});

t('list: account_id optional, filters, other accounts never seen; retrieve of another account is 404', async () => {
  const s = await seller(app);
  const a = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const b = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const other = await seller(app);
  const c = await paidWith(app, other, NETWORK_CARDS.chargeback);
  const all = await get(s.key, '/disputes');
  assert.is(all.status, 200);
  assert.equal(all.body.data.map((d: any) => d.payment.id), [b.id, a.id]);
  const named = await get(s.key, `/disputes?account_id=${s.accountId}&first=1`);
  assert.equal([named.body.data.length, named.body.page_info.has_next_page], [1, true]);
  const next = await get(s.key, `/disputes?account_id=${s.accountId}&first=1&after=${named.body.page_info.end_cursor}`);
  assert.equal(next.body.data.map((d: any) => d.payment.id), [a.id]);
  assert.equal((await get(s.key, `/disputes?payment_id=${a.id}`)).body.data.length, 1);
  assert.equal((await get(s.key, '/disputes?status=won')).body.data.length, 0);
  assert.equal((await get(s.key, `/disputes?created_before=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`)).body.data.length, 0);
  assert.is((await get(s.key, `/disputes?account_id=${other.accountId}`)).status, 404);
  const foreign = await disputeOf(app, c.id);
  const hidden = await get(s.key, `/disputes/${foreign.id}`);
  assert.equal([hidden.status, hidden.body.error.type], [404, 'not_found']);
  assert.is((await get(s.key, '/disputes?status=pending')).status, 400);
  assert.is((await get(s.key, '/disputes?account_id=nope')).body.error.param, 'account_id');
});

t('a viewer reads disputes but cannot edit or submit (403); without credentials 401', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const d = await disputeOf(app, p.id);
  const viewer = await viewerKey(app.db, s.accountId);
  assert.is((await get(viewer, `/disputes/${d.id}`)).status, 200);
  assert.is((await patch(viewer, d.id, { evidence: { notes: 'x' } })).status, 403);
  assert.is((await submit(viewer, d.id)).status, 403);
  assert.is((await app.request('GET', '/disputes', { version: VERSION })).status, 401);
});

t('PATCH edits evidence field by field; submit files it; the network rules won on winning_evidence and returns the amount', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const d = await disputeOf(app, p.id);
  const first = await patch(s.key, d.id, { evidence: { notes: 'The buyer used it. winning_evidence', customer_name: 'Ada' } });
  assert.is(first.status, 200, JSON.stringify(first.body));
  assert.equal([first.body.evidence.notes, first.body.evidence.customer_name, first.body.status], ['The buyer used it. winning_evidence', 'Ada', 'needs_response']);
  const second = await patch(s.key, d.id, { evidence: { customer_name: null, product_description: 'A course' } });
  assert.equal([second.body.evidence.notes, second.body.evidence.customer_name, second.body.evidence.product_description],
    ['The buyer used it. winning_evidence', null, 'A course']);
  const same = await patch(s.key, d.id, { evidence: { product_description: 'A course' } });
  assert.is(same.status, 200);
  assert.equal(await eventTypes(app, d.id), ['dispute.created', 'dispute.updated', 'dispute.updated']);
  const sub = await submit(s.key, d.id);
  assert.is(sub.status, 200, JSON.stringify(sub.body));
  assert.equal([sub.body.status, sub.body.evidence_submitted_by], ['under_review', 'account']);
  assert.ok(sub.body.evidence_submitted_at);
  const jobs = await app.db('graphile_worker._private_jobs').where({ key: `dispute_ruling:${d.id}` });
  assert.is(jobs.length, 1);
  await ruleOnDispute(app.db, d.id);
  await ruleOnDispute(app.db, d.id); // a re-run job does nothing
  const won = (await get(s.key, `/disputes/${d.id}`)).body;
  assert.equal([won.status, !!won.resolved_at], ['won', true]);
  // The amount is back; the fee is not.
  assert.is(await balance(app, s.ledger, 'pending'), NET - DISPUTE_FEE);
  assert.equal(await eventTypes(app, d.id), ['dispute.created', 'dispute.updated', 'dispute.updated', 'dispute.submitted', 'dispute.won']);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('clearing withholds what a dispute holds; ruled after clearing, the withheld part returns to available: either order ends the same', async () => {
  const clear = async (paymentId: string) => {
    await app.db('payments').where({ id: paymentId }).update({ settlement_time_at: app.db.raw("now() - interval '3 days'") }); // sql-state-write: the case runs the real-time clearing sweep (clearDueFunds), which skips clocked accounts, so real time must have passed the clearing period
    while (await clearDueFunds(app.db));
  };
  const rule = async (key: string, id: string, win: boolean) => {
    await patch(key, id, { evidence: { notes: win ? 'winning_evidence' : 'none' } });
    await submit(key, id);
    await ruleOnDispute(app.db, id);
  };
  const final: Record<string, number[]> = {};
  for (const [order, win] of [['cleared first', true], ['ruled first', true], ['cleared first', false], ['ruled first', false]] as const) {
    const s = await seller(app);
    const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
    const d = await disputeOf(app, p.id);
    if (order === 'cleared first') {
      await clear(p.id);
      // 95.80 was owed and the dispute holds 100.00: nothing became withdrawable.
      assert.equal([await balance(app, s.ledger, 'available'), await balance(app, s.ledger, 'pending')], [0, NET - PAID - DISPUTE_FEE]);
      await rule(s.key, d.id, win);
    } else {
      await rule(s.key, d.id, win);
      await clear(p.id);
    }
    final[`${order} ${win ? 'won' : 'lost'}`] = [await balance(app, s.ledger, 'available'), await balance(app, s.ledger, 'pending')];
  }
  assert.equal(final, {
    'cleared first won': [NET, -DISPUTE_FEE], 'ruled first won': [NET, -DISPUTE_FEE],
    'cleared first lost': [0, NET - PAID - DISPUTE_FEE], 'ruled first lost': [0, NET - PAID - DISPUTE_FEE],
  });
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('evidence without winning_evidence loses: nothing comes back', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const d = await disputeOf(app, p.id);
  await patch(s.key, d.id, { evidence: { notes: 'Please' } });
  assert.is((await submit(s.key, d.id)).status, 200);
  await ruleOnDispute(app.db, d.id);
  const lost = (await get(s.key, `/disputes/${d.id}`)).body;
  assert.is(lost.status, 'lost');
  assert.is(await balance(app, s.ledger, 'pending'), NET - PAID - DISPUTE_FEE);
  assert.equal((await eventTypes(app, d.id)).slice(-1), ['dispute.lost']);
});

t('once submitted: PATCH and submit are 400 invalid_state naming why; ruled: the same', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const d = await disputeOf(app, p.id);
  await submit(s.key, d.id);
  const edit = await patch(s.key, d.id, { evidence: { notes: 'late' } });
  assert.equal([edit.status, edit.body.error.type, edit.body.error.param], [400, 'invalid_state', 'evidence_submitted_at']);
  assert.match(edit.body.error.message, /already submitted/);
  const again = await submit(s.key, d.id);
  assert.equal([again.status, again.body.error.type, again.body.error.param], [400, 'invalid_state', 'evidence_submitted_at']);
  await ruleOnDispute(app.db, d.id);
  const after = await patch(s.key, d.id, { evidence: { notes: 'later' } });
  assert.equal([after.status, after.body.error.type], [400, 'invalid_state']);
  assert.is((await get(s.key, `/disputes/${d.id}`)).body.evidence.notes, null);
});

t('past response_due_at: PATCH and submit are refused naming response_due_at; the deadline job closes it; closed takes nothing', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const d = await disputeOf(app, p.id);
  // Not yet due: the deadline job does nothing.
  await closeUnanswered(app.db, d.id);
  assert.is((await disputeOf(app, p.id)).status, 'needs_response');
  // Seven days and an hour later for the seller (its sandbox clock): past response_due_at.
  const { onClock } = await laterOnClock(app, s, 7 * 86_400_000 + 3_600_000);
  const edit = await patch(s.key, d.id, { evidence: { notes: 'x' } });
  assert.equal([edit.status, edit.body.error.type, edit.body.error.param], [400, 'invalid_state', 'response_due_at']);
  assert.match(edit.body.error.message, /deadline/);
  const sub = await submit(s.key, d.id);
  assert.equal([sub.status, sub.body.error.param], [400, 'response_due_at']);
  await onClock(() => closeUnanswered(app.db, d.id));
  const closed = (await get(s.key, `/disputes/${d.id}`)).body;
  assert.equal([closed.status, closed.evidence_submitted_at, !!closed.resolved_at], ['closed', null, true]);
  assert.is(await balance(app, s.ledger, 'pending'), NET - PAID - DISPUTE_FEE);
  const illegal = await submit(s.key, d.id);
  assert.equal([illegal.status, illegal.body.error.type, illegal.body.error.param], [400, 'invalid_state', 'status']);
  assert.equal((await eventTypes(app, d.id)), ['dispute.created', 'dispute.closed']);
  const again = await app.request('POST', `/payments/${p.id}/refund`, { token: s.key, version: VERSION, body: {} });
  assert.equal([again.status, again.body.error.type], [400, 'invalid_state']);
});

t('a refund before any ruling prevents the dispute and returns the amount; after a ruling it does not', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const d = await disputeOf(app, p.id);
  await refund(app, s.key, p.id);
  const prevented = (await get(s.key, `/disputes/${d.id}`)).body;
  assert.equal([prevented.status, prevented.payment.status, !!prevented.resolved_at], ['prevented', 'refunded', true]);
  // Paid 95.80 net; the refund took 100.00, the dispute's 100.00 came back: only the fee is lost.
  assert.is(await balance(app, s.ledger, 'pending'), NET - PAID - DISPUTE_FEE);
  assert.equal(await eventTypes(app, d.id), ['dispute.created', 'dispute.prevented']);
  const edit = await patch(s.key, d.id, { evidence: { notes: 'x' } });
  assert.equal([edit.status, edit.body.error.param], [400, 'status']);
  // Under review is before any ruling too.
  const q = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const e = await disputeOf(app, q.id);
  await submit(s.key, e.id);
  await refund(app, s.key, q.id, { partial_amount: 100 });
  assert.is((await get(s.key, `/disputes/${e.id}`)).body.status, 'prevented');
  await ruleOnDispute(app.db, e.id);
  assert.is((await get(s.key, `/disputes/${e.id}`)).body.status, 'prevented');
  // After a loss the buyer already has the money: a refund is refused and nothing is written.
  const r = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const f = await disputeOf(app, r.id);
  await submit(s.key, f.id);
  await ruleOnDispute(app.db, f.id);
  const refused = await app.request('POST', `/payments/${r.id}/refund`, { token: s.key, version: VERSION, body: { partial_amount: 100 } });
  assert.equal([refused.status, refused.body.error.type], [400, 'invalid_state']);
  assert.match(refused.body.error.message, /charged back/);
  assert.is((await app.db('refunds').where({ payment_id: r.id })).length, 0);
  assert.is((await get(s.key, `/disputes/${f.id}`)).body.status, 'lost');
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('PATCH input: evidence is required, unknown fields and over-long text are 400s naming them; unknown id 404', async () => {
  const s = await seller(app);
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const d = await disputeOf(app, p.id);
  const missing = await patch(s.key, d.id, {});
  assert.equal([missing.status, missing.body.error.param], [400, 'evidence']);
  const unknown = await patch(s.key, d.id, { evidence: { favourite_colour: 'red' } });
  assert.is(unknown.status, 400);
  assert.match(unknown.body.error.param, /favourite_colour/);
  const long = await patch(s.key, d.id, { evidence: { customer_name: 'x'.repeat(501) } });
  assert.equal([long.status, long.body.error.param], [400, 'evidence.customer_name']);
  const flat = await patch(s.key, d.id, { notes: 'flat' });
  assert.is(flat.status, 400);
  assert.is((await patch(s.key, 'dspt_nope', { evidence: { notes: 'x' } })).status, 404);
  assert.is((await submit(s.key, 'dspt_nope')).status, 404);
  assert.equal(await eventTypes(app, d.id), ['dispute.created']);
});

t('summary: counts and sums by status and currency, per account or over every visible account', async () => {
  const s = await seller(app);
  const a = await paidWith(app, s, NETWORK_CARDS.chargeback);
  await paidWith(app, s, NETWORK_CARDS.chargeback);
  const c = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const dc = await disputeOf(app, c.id);
  await submit(s.key, dc.id);
  await refund(app, s.key, a.id);
  const res = await get(s.key, `/disputes/summary?account_id=${s.accountId}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  const usd = (amount: number) => ({ amount, currency: 'usd', decimals: 2, display_decimals: 2 });
  assert.equal(res.body, { object: 'dispute_summary', totals: [
    { status: 'needs_response', count: 1, amount: usd(PAID) },
    { status: 'under_review', count: 1, amount: usd(PAID) },
    { status: 'prevented', count: 1, amount: usd(PAID) },
  ] });
  assert.equal((await get(s.key, '/disputes/summary')).body, res.body);
  const other = await makeOwner(app.db);
  assert.equal((await get(other.key, '/disputes/summary')).body, { object: 'dispute_summary', totals: [] });
  assert.is((await get(other.key, `/disputes/summary?account_id=${s.accountId}`)).status, 404);
});

t('the dispute fighter files evidence from the payment, the buyer and the membership, and wins where a membership was granted', async () => {
  const s = await seller(app);
  const on = await app.request('PATCH', `/accounts/${s.accountId}/preferences`, { token: s.key, version: VERSION, body: { dispute_fighter_enabled: true } });
  assert.is(on.status, 200, JSON.stringify(on.body));
  const { fightDispute } = await import('../../handlers/disputes/network.js');
  const p = await paidWith(app, s, NETWORK_CARDS.chargeback, true);
  const d = await disputeOf(app, p.id);
  assert.is((await app.db('graphile_worker._private_jobs').where({ key: `dispute_fighter:${d.id}` })).length, 1);
  await patch(s.key, d.id, { evidence: { billing_address: '1 Main St' } });
  await fightDispute(app.db, d.id);
  await fightDispute(app.db, d.id); // re-run: nothing
  const filed = (await get(s.key, `/disputes/${d.id}`)).body;
  assert.equal([filed.status, filed.evidence_submitted_by, filed.evidence.billing_address], ['under_review', 'dispute_fighter', '1 Main St']);
  assert.ok(filed.evidence.customer_email_address);
  assert.match(filed.evidence.access_activity_log, /^Membership mem_/);
  assert.match(filed.evidence.notes, new RegExp(p.id));
  await ruleOnDispute(app.db, d.id);
  assert.is((await get(s.key, `/disputes/${d.id}`)).body.status, 'won');
  // Without a membership there is no record of delivery: lost.
  const q = await paidWith(app, s, NETWORK_CARDS.chargeback);
  const e = await disputeOf(app, q.id);
  await fightDispute(app.db, e.id);
  await ruleOnDispute(app.db, e.id);
  assert.is((await get(s.key, `/disputes/${e.id}`)).body.status, 'lost');
  // Turned off, it does nothing.
  await app.request('PATCH', `/accounts/${s.accountId}/preferences`, { token: s.key, version: VERSION, body: { dispute_fighter_enabled: false } });
  const r = await paidWith(app, s, NETWORK_CARDS.chargeback, true);
  const f = await disputeOf(app, r.id);
  assert.is((await app.db('graphile_worker._private_jobs').where({ key: `dispute_fighter:${f.id}` })).length, 0);
  await fightDispute(app.db, f.id);
  assert.is((await disputeOf(app, r.id)).status, 'needs_response');
});

t.run();
