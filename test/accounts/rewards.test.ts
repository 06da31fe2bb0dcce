// Rewards are earned on real money only: an account's lifetime volume comes from its real payments
// (handlers/accounts/lifetime-volume.ts): settled payments add their usd_total, refunds and lost or unanswered
// chargebacks take their share back, in the transaction that moves the money; crossing a milestone pays its reward
// once, through the ledger. All over HTTP and the product's own jobs (collect_payment, refund_payment, the network's
// ruling), run as the worker runs them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeSeller, pay, settleRefunds, collect, VERSION } from '../payments/payment-fixtures.js';
import { NETWORK_CARDS } from '../disputes/dispute-fixtures.js';
import { reportOnPayment, ruleOnDispute } from '../../sandbox/card_scheme/index.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { ledgerOf, PLATFORM } from '../../handlers/ledger/ledgers.js';
import { makeKey } from '../helpers/fixtures.js';
import { accountWithVolume, ids } from './support.js';

const t = suite('account rewards from real volume');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

type Seller = Awaited<ReturnType<typeof makeSeller>>;

async function account(s: Seller) {
  const res = await app.request('GET', `/accounts/${s.accountId}`, { token: s.key, version: VERSION });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body;
}
const reward = async (s: Seller, id = 'rwd_10k') => (await account(s)).rewards.find((r: { id: string }) => r.id === id);
const progress = async (s: Seller) => (await reward(s)).progress.amount as number;
const available = async (s: Seller) => (await account(s)).balance.available.amount as number;

async function refund(s: Seller, paymentId: string, partial?: number) {
  const res = await app.request('POST', `/payments/${paymentId}/refund`, { token: s.key, version: VERSION, body: partial ? { partial_amount: partial } : {} });
  assert.is(res.status, 200, JSON.stringify(res.body));
  await settleRefunds(app, paymentId);
}

const rewardEvents = (accountId: string) => app.db('events').where({ type: 'account.reward_paid', account_id: accountId }).orderBy('created_at');
const rewardPostings = (accountId: string, milestone = 'rwd_10k') => app.db('ledger_postings').where({ entry_id: `${accountId}:${milestone}:reward` });

t('progress grows with settled payments (converted to USD), not with uncollected ones; refunds and a lost chargeback take it back', async () => {
  const s = await makeSeller(app.db);
  assert.equal(await reward(s), { id: 'rwd_10k', title: '$10K in sales', threshold: { amount: 1_000_000, currency: 'usd', decimals: 2, display_decimals: 2 },
    progress: { amount: 0, currency: 'usd', decimals: 2, display_decimals: 2 }, qualified: false, payout_status: 'not_qualified' });
  const big = await pay(app, s, { amount: 100_000, currency: 'usd' });
  assert.is(await progress(s), 100_000);
  // 15.50 GBP is usd_total 19.69 (exact conversion, rounded half up): the volume takes the payment's usd_total.
  const gbp = await pay(app, s, { amount: 1_550, currency: 'gbp' });
  assert.is(gbp.created.usd_total.amount, 1_969);
  assert.is(await progress(s), 101_969);
  // Created but not collected: no volume.
  await pay(app, s, { amount: 50_000, currency: 'usd' }, { collect: false });
  assert.is(await progress(s), 101_969);
  // A quarter refunded, then a third of the GBP payment (516 of 1550: 1969 x 516 / 1550 = 655.49... -> 655 cents).
  await refund(s, big.id, 25_000);
  assert.is(await progress(s), 76_969);
  await refund(s, gbp.id, 516);
  assert.is(await progress(s), 76_969 - 655);
  // The rest of the GBP payment: exactly its usd_total is gone, whatever the rounding of the parts.
  await refund(s, gbp.id);
  assert.is(await progress(s), 75_000);
  // A chargeback lost at the ruling takes its payment's volume back; one won leaves it.
  const lost = await pay(app, s, { amount: 10_000, currency: 'usd' }, { card: NETWORK_CARDS.chargeback });
  const won = await pay(app, s, { amount: 20_000, currency: 'usd' }, { card: NETWORK_CARDS.chargeback });
  assert.is(await progress(s), 105_000);
  for (const [p, evidence] of [[lost, {}], [won, { evidence: { product_description: 'winning_evidence' } }]] as const) {
    await reportOnPayment(app.db, p.id);
    const d = await app.db('disputes').where({ payment_id: p.id }).first();
    if (Object.keys(evidence).length) await app.request('PATCH', `/disputes/${d.id}`, { token: s.key, version: VERSION, body: evidence });
    const submitted = await app.request('POST', `/disputes/${d.id}/submit`, { token: s.key, version: VERSION, body: {} });
    assert.is(submitted.status, 200, JSON.stringify(submitted.body));
    await ruleOnDispute(app.db, d.id);
    await ruleOnDispute(app.db, d.id); // run again: the dispute has moved on, nothing moves twice
  }
  assert.equal((await app.db('disputes').whereIn('payment_id', [lost.id, won.id]).orderBy('amount')).map((d) => d.status), ['lost', 'won']);
  assert.is(await progress(s), 95_000);
  const r = await reward(s);
  assert.equal([r.qualified, r.payout_status], [false, 'not_qualified']);
  assert.equal(await rewardEvents(s.accountId), []);
});

t('crossing a milestone pays its reward once, through the ledger; a retried or doubled job pays nothing more', async () => {
  const s = await makeSeller(app.db);
  await pay(app, s, { amount: 999_999, currency: 'usd' });
  assert.equal([(await reward(s)).qualified, (await reward(s)).payout_status, await available(s)], [false, 'not_qualified', 0]);
  const feesBefore = Number((await app.db('ledger_balances').where({ ledger_id: await ledgerOf(app.db, PLATFORM), currency: 'usd', bucket: 'fees' }).first('amount'))?.amount ?? 0);
  // One cent more: 10,000.00 reached. The payment's own money is pending (still clearing); the reward is available.
  const cent = await pay(app, s, { amount: 1, currency: 'usd' }, { collect: false });
  await Promise.all([collect(app, cent.id), collect(app, cent.id)]); // two workers picking the same job
  await collect(app, cent.id); // and a retry
  const r = await reward(s);
  assert.equal([r.progress.amount, r.qualified, r.payout_status], [1_000_000, true, 'paid']);
  assert.is(await available(s), 10_000);
  assert.equal((await rewardPostings(s.accountId)).map((p) => Number(p.amount)).sort((a, b) => a - b), [-10_000, 10_000]);
  // Paid by the platform out of its fee revenue: its fees moved by the platform fee collected less the reward.
  const feesAfter = Number((await app.db('ledger_balances').where({ ledger_id: await ledgerOf(app.db, PLATFORM), currency: 'usd', bucket: 'fees' }).first('amount'))?.amount ?? 0);
  assert.is(feesAfter - feesBefore, -10_000);
  const events = await rewardEvents(s.accountId);
  assert.is(events.length, 1);
  assert.equal({ ...events[0].data, paid_at: undefined }, {
    account_id: s.accountId, milestone_id: 'rwd_10k', title: '$10K in sales', paid_at: undefined,
    threshold: { amount: 1_000_000, currency: 'usd', decimals: 2, display_decimals: 2 },
    amount: { amount: 10_000, currency: 'usd', decimals: 2, display_decimals: 2 },
    lifetime_volume: { amount: 1_000_000, currency: 'usd', decimals: 2, display_decimals: 2 },
  });
  // Refunded back under the threshold: the reward stays paid; crossing again pays nothing.
  await refund(s, cent.id);
  const under = await reward(s);
  assert.equal([under.progress.amount, under.qualified, under.payout_status], [999_999, false, 'paid']);
  await pay(app, s, { amount: 500, currency: 'usd' });
  assert.equal([(await reward(s)).qualified, await available(s), (await rewardEvents(s.accountId)).length], [true, 10_000, 1]);
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
});

t('two payments settling at once past a threshold pay it once', async () => {
  const s = await makeSeller(app.db);
  await pay(app, s, { amount: 999_000, currency: 'usd' });
  const a = await pay(app, s, { amount: 1_000, currency: 'usd' }, { collect: false });
  const b = await pay(app, s, { amount: 1_000, currency: 'usd' }, { collect: false });
  await Promise.all([collect(app, a.id), collect(app, b.id)]);
  const r = await reward(s);
  assert.equal([r.progress.amount, r.qualified, r.payout_status], [1_000_000, true, 'paid']);
  assert.is(await available(s), 10_000);
  assert.is((await rewardEvents(s.accountId)).length, 1);
  assert.is((await rewardPostings(s.accountId)).length, 2);
  // The volume is every settled payment's, one row read whatever the history.
  const row = await app.db('accounts').where({ id: s.accountId }).first('lifetime_volume_usd');
  assert.is(Number(row.lifetime_volume_usd), 1_001_000);
});

t('one payment past two thresholds pays both rewards', async () => {
  const s = await makeSeller(app.db);
  await pay(app, s, { amount: 10_000_000, currency: 'usd' });
  const rewards = (await account(s)).rewards;
  assert.equal(rewards.map((r: any) => [r.id, r.qualified, r.payout_status]),
    [['rwd_10k', true, 'paid'], ['rwd_100k', true, 'paid'], ['rwd_1m', false, 'not_qualified']]);
  assert.is(await available(s), 10_000 + 50_000);
  assert.equal((await rewardEvents(s.accountId)).map((e) => e.data.milestone_id).sort(), ['rwd_100k', 'rwd_10k']);
});

t('GET /accounts orders and bounds by the volume payments made', async () => {
  const p = await makeSeller(app.db);
  const mid = await accountWithVolume(app, { parentId: p.accountId, volume: 30_000 });
  const top = await accountWithVolume(app, { parentId: p.accountId, volume: 70_000 });
  const low = await accountWithVolume(app, { parentId: p.accountId, volume: 5_000 });
  const query = { parent_account_id: p.accountId, order: 'volume' };
  const list = async (q: Record<string, string | number>) => {
    const res = await app.request('GET', '/accounts', { token: p.key, version: VERSION, query: q });
    assert.is(res.status, 200, JSON.stringify(res.body));
    return ids(res);
  };
  assert.equal(await list(query), [top, mid, low]);
  assert.equal(await list({ ...query, volume_min: 300 }), [top, mid]);
  // A refund of 450.00 of the top account's 700.00 moves it under the middle one, and out of the bound.
  const topPayment = await app.db('payments').where({ account_id: top }).first('id');
  const topKey = (await makeKey(app.db, { accountId: top, role: 'admin' })).secret;
  const res = await app.request('POST', `/payments/${topPayment.id}/refund`, { token: topKey, version: VERSION, body: { partial_amount: 45_000 } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  await settleRefunds(app, topPayment.id);
  assert.equal(await list(query), [mid, top, low]);
  assert.equal(await list({ ...query, volume_min: 300 }), [mid]);
  assert.equal(await list({ ...query, volume_min: 250, volume_max: 250 }), [top]);
});

t.run();
