// Partner commissions follow the money: a referred account's payment whose money goes back to the buyer takes the
// partner's commission back in proportion: floor(C * B / T) reversed once B of T is back (integer math, cumulative), by
// a reversal earning and a ledger entry posted in the refund's statement (or the ruling's transaction).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { ledgerOf, PLATFORM } from '../../handlers/ledger/ledgers.js';
import { shareOf } from '../../handlers/partners/reverse.js';
import { closeUnanswered } from '../../handlers/disputes/network.js';
import { reportOnPayment, ruleOnDispute } from '../../sandbox/card_scheme/index.js';
import { pay, settleRefunds } from '../payments/payment-fixtures.js';
import { NETWORK_CARDS } from '../disputes/dispute-fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { referred as referredBy } from './partner-fixtures.js';

const t = suite('partner reversals');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const get = (token: string, path: string) => app.request('GET', path, { token, version: headVersion() });

const referred = () => referredBy(app);
type Referred = Awaited<ReturnType<typeof referred>>;

async function refund(r: Referred, paymentId: string, partial?: number) {
  const res = await app.request('POST', `/payments/${paymentId}/refund`, { token: r.key, version: headVersion(), body: partial ? { partial_amount: partial } : {} });
  assert.is(res.status, 200, JSON.stringify(res.body));
  await settleRefunds(app, paymentId);
  return (await app.db('refunds').where({ payment_id: paymentId }).orderBy('created_at', 'desc').first()).id as string;
}

const wallet = async (userId: string, bucket: string) =>
  Number((await app.db('ledger_balances').where({ ledger_id: await ledgerOf(app.db, userId), currency: 'usd', bucket }).first('amount'))?.amount ?? 0);
const platformFees = async () =>
  Number((await app.db('ledger_balances').where({ ledger_id: await ledgerOf(app.db, PLATFORM), currency: 'usd', bucket: 'fees' }).first('amount'))?.amount ?? 0);
const earnings = async (r: Referred) => (await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings?first=100`)).body.data;

t('rounding: floor(C * B / T), cumulative; a whole refund reverses exactly C', () => {
  assert.equal([shareOf(30, 3_333, 10_000), shareOf(30, 6_666, 10_000), shareOf(30, 10_000, 10_000)], [9, 19, 30]);
  assert.equal([shareOf(7, 1, 2_500), shareOf(7, 2_499, 2_500), shareOf(7, 2_500, 2_500)], [0, 6, 7]);
  // Past 2^53 the product is exact (BigInt), never a float.
  assert.is(shareOf(2 ** 40, 2 ** 20, 2 ** 21), 2 ** 39);
});

t('partial refunds reverse the commission in proportion, each in its refund\'s statement; the last one to exactly C', async () => {
  const r = await referred();
  const p = await pay(app, r, { amount: 10_000, currency: 'usd' }); // platform fee 100, commission 30
  const feesBefore = await platformFees();
  assert.equal([await wallet(r.partner.id, 'available'), await wallet(r.partner.id, 'pending')], [0, 30]);
  const first = await refund(r, p.id, 3_333); // floor(30 * 3333 / 10000) = 9
  const second = await refund(r, p.id, 3_333); // floor(30 * 6666 / 10000) = 19: 10 more
  const tiny = await refund(r, p.id, 1); // floor(30 * 6667 / 10000) = 20: 1 more
  const last = await refund(r, p.id); // the rest, 3333: 30 in all, 10 more
  const reversals = (await earnings(r)).filter((e: any) => e.status === 'reversed');
  assert.equal(reversals.map((e: any) => [e.commission_amount_usd, e.transaction_amount_usd, e.reversal.reason, e.reversal.source_id]), [
    ['-0.10', '-33.33', 'refund', last], ['-0.01', '-0.01', 'refund', tiny], ['-0.10', '-33.33', 'refund', second], ['-0.09', '-33.33', 'refund', first],
  ]);
  const original = (await earnings(r)).find((e: any) => e.status === 'awaiting_settlement');
  assert.equal([original.commission_amount_usd, original.reversal], ['0.30', null]);
  assert.ok(reversals.every((e: any) => e.reversal.earning_id === original.id && e.resource.id === p.id && e.payout_percentage === 30));
  // The money: out of the partner's wallet (pending, where the unsettled commission is; after settlement a debt: the
  // commission may have been spent) back to the platform's fee revenue; each reversal posted in the same statement
  // (one transaction) as its refund's entry.
  assert.equal([await wallet(r.partner.id, 'available'), await wallet(r.partner.id, 'pending')], [0, 0]);
  assert.is(await platformFees() - feesBefore, 30);
  for (const refundId of [first, second, tiny, last]) {
    const xmins = await app.db('ledger_postings').whereIn('entry_id', [refundId, `${refundId}:partner_reversal`])
      .distinct(app.db.raw('xmin::text as x'), 'entry_id');
    assert.equal(new Set(xmins.map((x: any) => x.entry_id)).size, 2, `both entries of ${refundId}: ${JSON.stringify(xmins)}`);
    assert.equal(new Set(xmins.map((x: any) => x.x)).size, 1, `one transaction for ${refundId}`);
  }
  // The business is net of reversals.
  const business = (await get(r.partner.token, `/partners/businesses/${r.businessId}`)).body;
  assert.equal([business.earnings_usd.total, business.volume_usd.settled], ['0.00', '0.00']);
  assert.equal((await get(r.partner.token, `/partners/businesses/${r.businessId}/earnings?status=reversed`)).body.data.length, 4);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('a chargeback the seller loses (or leaves unanswered) reverses what the refunds left; one won reverses nothing', async () => {
  const r = await referred();
  // Refunded a quarter, then charged back on the rest and closed unanswered: 7 then 23, 30 in all.
  const lost = await pay(app, r, { amount: 10_000, currency: 'usd' }, { card: NETWORK_CARDS.chargeback });
  await refund(r, lost.id, 2_500);
  await reportOnPayment(app.db, lost.id);
  const dispute = await app.db('disputes').where({ payment_id: lost.id }).first();
  assert.is(Number(dispute.amount), 7_500);
  await app.db('disputes').where({ id: dispute.id }).update({ response_due_at: app.db.raw("now() - interval '1 second'") }); // sql-state-write: the response window is days of real time; this suite runs without a sandbox clock or worker
  await closeUnanswered(app.db, dispute.id);
  assert.is((await app.db('disputes').where({ id: dispute.id }).first()).status, 'closed');
  const rows = (await earnings(r)).filter((e: any) => e.resource.id === lost.id && e.status === 'reversed');
  assert.equal(rows.map((e: any) => [e.commission_amount_usd, e.transaction_amount_usd, e.reversal.reason, e.reversal.source_id]),
    [['-0.23', '-75.00', 'chargeback', dispute.id], ['-0.07', '-25.00', 'refund', rows[1]?.reversal.source_id]]);
  assert.ok(await app.db('ledger_postings').where({ entry_id: `${dispute.id}:partner_reversal` }).first());
  // The job run again changes nothing (the dispute has moved on).
  await closeUnanswered(app.db, dispute.id);
  assert.is((await earnings(r)).filter((e: any) => e.status === 'reversed').length, 2);

  // Lost at the ruling: the whole commission (30) back.
  const ruled = await pay(app, r, { amount: 10_000, currency: 'usd' }, { card: NETWORK_CARDS.chargeback });
  await reportOnPayment(app.db, ruled.id);
  const d2 = await app.db('disputes').where({ payment_id: ruled.id }).first();
  const submitted = await app.request('POST', `/disputes/${d2.id}/submit`, { token: r.key, version: headVersion(), body: {} });
  assert.is(submitted.status, 200, JSON.stringify(submitted.body));
  await ruleOnDispute(app.db, d2.id);
  assert.is((await app.db('disputes').where({ id: d2.id }).first()).status, 'lost');
  assert.equal((await earnings(r)).filter((e: any) => e.resource.id === ruled.id && e.status === 'reversed').map((e: any) => e.commission_amount_usd), ['-0.30']);

  // Won: the seller keeps the money, and the partner the commission.
  const won = await pay(app, r, { amount: 10_000, currency: 'usd' }, { card: NETWORK_CARDS.chargeback });
  await reportOnPayment(app.db, won.id);
  const d3 = await app.db('disputes').where({ payment_id: won.id }).first();
  await app.request('PATCH', `/disputes/${d3.id}`, { token: r.key, version: headVersion(), body: { evidence: { product_description: 'winning_evidence' } } });
  await app.request('POST', `/disputes/${d3.id}/submit`, { token: r.key, version: headVersion(), body: {} });
  await ruleOnDispute(app.db, d3.id);
  assert.is((await app.db('disputes').where({ id: d3.id }).first()).status, 'won');
  assert.equal((await earnings(r)).filter((e: any) => e.resource.id === won.id).map((e: any) => e.status), ['awaiting_settlement']);
  // 3 x 30 earned (pending until the payments settle), 30 + 30 reversed.
  assert.equal([await wallet(r.partner.id, 'available'), await wallet(r.partner.id, 'pending')], [0, 30]);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t.run();
