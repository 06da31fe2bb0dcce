// A property of the whole money path: random sequences of payments, refunds, clearing, payouts (with failures,
// reversals and cancels), transfers and chargebacks (disputes won, lost or prevented by a refund), run a few at a
// time concurrently, with retried idempotency keys, leave a
// ledger where every balance equals the sum of its postings, every entry balances per currency, no spendable bucket
// is below zero, nothing was created twice under a retried key, and no request failed with a 5xx. Cards have a
// property of their own (the last block).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeUser } from '../helpers/fixtures.js';
import { makeSeller, pay, settleRefunds, CARDS, VERSION } from '../payments/payment-fixtures.js';
import { stepPayout } from '../../sandbox/payout_rail/index.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { clearEverySettled, dollars, makeMoneySeller, type MoneySeller } from './money-sellers.js';
import { fundBalance } from '../helpers/ledger.js';
import { reportOnPayment, ruleOnDispute } from '../../sandbox/card_scheme/index.js';
import { NETWORK_CARDS } from '../disputes/dispute-fixtures.js';
import { REVERSING_MERCHANT, stepCardTransaction } from '../../sandbox/card_network/index.js';
import { confirmDeposit } from '../../handlers/deposits/confirm-deposit.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { postEntry } from '../../handlers/ledger/post.js';
import { randomToken } from '../../runtime/ids.js';
import { commissionOf, SALES_PERCENTAGE } from '../../handlers/partners/accrue.js';
import { shareOf } from '../../handlers/partners/reverse.js';

const t = suite('money: a property of random concurrent movements');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

type Seller = MoneySeller;

type Command =
  | { kind: 'pay'; seller: number; plan: number; declined: boolean }
  | { kind: 'refund'; seller: number; pick: number; cents: number }
  | { kind: 'clear' }
  | { kind: 'payout'; seller: number; method: number; cents: number; retried: boolean }
  | { kind: 'rail'; pick: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'transfer'; from: number; to: number; cents: number; retried: boolean }
  | { kind: 'chargeback'; seller: number; plan: number }
  | { kind: 'rule'; pick: number; win: boolean };

const SELLERS = 3;
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), seller: fc.nat(SELLERS - 1), plan: fc.nat(2), declined: fc.boolean() }),
  fc.record({ kind: fc.constant('refund' as const), seller: fc.nat(SELLERS - 1), pick: fc.nat(), cents: fc.integer({ min: 1, max: 3_000 }) }),
  fc.constant({ kind: 'clear' as const }),
  fc.record({ kind: fc.constant('payout' as const), seller: fc.nat(SELLERS - 1), method: fc.nat(2), cents: fc.integer({ min: 100, max: 4_000 }), retried: fc.boolean() }),
  fc.record({ kind: fc.constant('rail' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('transfer' as const), from: fc.nat(SELLERS - 1), to: fc.nat(SELLERS), cents: fc.integer({ min: 1, max: 3_000 }), retried: fc.boolean() }),
  fc.record({ kind: fc.constant('chargeback' as const), seller: fc.nat(SELLERS - 1), plan: fc.nat(2) }),
  fc.record({ kind: fc.constant('rule' as const), pick: fc.nat(), win: fc.boolean() }),
);

/** MONEY_RUNS runs per block (15); MONEY_SEED and MONEY_PATH replay a failure fast-check reported; the failing
 * assertion is shown with the counterexample. */
const replay = {
  numRuns: Number(process.env.MONEY_RUNS ?? 15),
  includeErrorInReport: true,
  ...(process.env.MONEY_SEED ? { seed: Number(process.env.MONEY_SEED), path: process.env.MONEY_PATH } : {}),
};

/** Run first (commands go four at a time): one of every movement, so that the checks after the runs never fail for
 * want of one (with random commands alone, a rare kind can be missing from all the runs). */
const EVERY_KIND: Command[] = [
  { kind: 'pay', seller: 0, plan: 0, declined: false }, { kind: 'transfer', from: 0, to: 1, cents: 100, retried: true },
  { kind: 'payout', seller: 0, method: 0, cents: 1_000, retried: true }, { kind: 'chargeback', seller: 1, plan: 0 },
  { kind: 'refund', seller: 0, pick: 0, cents: 100 }, { kind: 'rail', pick: 0 }, { kind: 'clear' }, { kind: 'rule', pick: 0, win: true },
];


async function makeWorld() {
  const sellers: Seller[] = [];
  for (let i = 0; i < SELLERS; i++) sellers.push(await makeMoneySeller(app));
  const user = await makeUser(app.db);
  return { sellers, user };
}

t('balances equal their postings, floors hold and retried keys create once, whatever runs concurrently', async () => {
  const world = await makeWorld();
  const serverErrors: string[] = [];
  const keysSent = new Map<string, string>(); // idempotency key -> the kind it created
  let reversals = 0; // partner commissions taken back, over every run
  let keyNo = 0;
  const check = (what: string, res: { status: number; body: unknown }) => {
    if (res.status >= 500) serverErrors.push(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  const payments = async (accountId: string) => (await app.db('payments').where({ account_id: accountId, status: 'succeeded' }).select('id', 'total')).map((p) => p.id as string);
  const openPayouts = async () => (await app.db('payouts').whereIn('status', ['requested', 'in_review', 'processing', 'completed']).whereNull('failure_code').select('id')).map((p) => p.id as string);

  const run = async (c: Command): Promise<void> => {
    const s = world.sellers[(c as { seller?: number }).seller ?? 0];
    switch (c.kind) {
      case 'pay':
        await pay(app, s, { plan_id: s.planIds[c.plan], country: 'US' }, { card: c.declined ? CARDS.declined : CARDS.succeeds });
        return;
      case 'refund': {
        const ids = await payments(s.accountId);
        if (!ids.length) return;
        const id = ids[c.pick % ids.length];
        check('refund', await app.request('POST', `/payments/${id}/refund`, { token: s.key, version: VERSION, body: { partial_amount: c.cents } }));
        await settleRefunds(app, id);
        return;
      }
      case 'clear':
        await clearEverySettled(app);
        return;
      case 'payout': {
        const key = `payout-${++keyNo}`;
        keysSent.set(key, 'payout');
        const send = () => app.request('POST', '/payouts', { token: s.key, version: VERSION, headers: { 'Idempotency-Key': key },
          body: { account_id: s.accountId, payout_method_id: s.methods[c.method], amount: dollars(c.cents) } });
        const sent = await Promise.all(c.retried ? [send(), send()] : [send()]);
        sent.forEach((r) => check('payout', r));
        return;
      }
      case 'rail': {
        const ids = await openPayouts();
        if (ids.length) await stepPayout(app.db, ids[c.pick % ids.length]);
        return;
      }
      case 'cancel': {
        const ids = await openPayouts();
        if (!ids.length) return;
        const p = await app.db('payouts').where({ id: ids[c.pick % ids.length] }).first('id', 'account_id');
        const owner = world.sellers.find((x) => x.accountId === p.account_id)!;
        check('cancel', await app.request('POST', `/payouts/${p.id}/cancel`, { token: owner.key, version: VERSION }));
        return;
      }
      case 'transfer': {
        const from = world.sellers[c.from];
        const to = c.to < SELLERS ? world.sellers[c.to].accountId : world.user.id;
        if (to === from.accountId) return;
        const key = `transfer-${++keyNo}`;
        keysSent.set(key, 'transfer');
        const send = () => app.request('POST', '/transfers', { token: from.key, version: VERSION, headers: { 'Idempotency-Key': key },
          body: { type: 'balance', origin_id: from.accountId, destination_id: to, amount: c.cents } });
        const sent = await Promise.all(c.retried ? [send(), send()] : [send()]);
        sent.forEach((r) => check('transfer', r));
        return;
      }
      case 'chargeback': {
        const p = await pay(app, s, { plan_id: s.planIds[c.plan], country: 'US' }, { card: NETWORK_CARDS.chargeback });
        await reportOnPayment(app.db, p.id);
        return;
      }
      case 'rule': {
        const open = await app.db('disputes').where({ status: 'needs_response' }).orderBy('id').select('id', 'account_id');
        if (!open.length) return;
        const d = open[c.pick % open.length];
        const owner = world.sellers.find((x) => x.accountId === d.account_id)!;
        check('dispute evidence', await app.request('PATCH', `/disputes/${d.id}`, { token: owner.key, version: VERSION,
          body: { evidence: { notes: c.win ? 'winning_evidence' : 'none' } } }));
        check('dispute submit', await app.request('POST', `/disputes/${d.id}/submit`, { token: owner.key, version: VERSION }));
        await ruleOnDispute(app.db, d.id);
        return;
      }
    }
  };

  await fc.assert(fc.asyncProperty(fc.array(command, { minLength: 6, maxLength: 20 }), async (commands) => {
    for (let i = 0; i < commands.length; i += 4) await Promise.all(commands.slice(i, i + 4).map(run));
    const report = await verifyLedger(app.db);
    assert.equal([report.mismatches, report.unbalancedEntries, report.dailyTotalMismatches], [[], [], []]);
    const below = await app.db('ledger_balances').whereIn('bucket', ['available', 'in_transit', 'held']).where('amount', '<', 0);
    assert.equal(below, []);
    assert.equal(serverErrors, [], serverErrors.join('\n'));
    // A retried key made at most one payout or transfer: one stored response per key, and one row per stored 2xx.
    const stored = await app.db('idempotency_keys').whereIn('key', [...keysSent.keys()]).select('key', 'status_code', 'response');
    const payoutIds = stored.filter((r) => r.status_code === 201 && keysSent.get(r.key) === 'payout').map((r) => r.response.id);
    assert.is(new Set(payoutIds).size, payoutIds.length);
    assert.is(Number((await app.db('payouts').whereIn('account_id', world.sellers.map((x) => x.accountId)).count({ n: '*' }))[0].n), payoutIds.length);
    const transferIds = stored.filter((r) => r.status_code === 201 && keysSent.get(r.key) === 'transfer').map((r) => r.response.id);
    assert.is(Number((await app.db('transfers').whereIn('id', transferIds).count({ n: '*' }))[0].n), transferIds.length);
    // Each referred seller's settled USD payment earned its partner floor(platform fee * 30 / 100), once.
    for (const seller of world.sellers) {
      const fees = await app.db('payment_fees').join('payments', 'payments.id', 'payment_fees.payment_id')
        .where({ 'payments.account_id': seller.accountId, 'payment_fees.type': 'platform_fee', 'payments.currency': 'usd' }).pluck('payment_fees.amount');
      const owed = fees.reduce((sum: number, fee: string) => sum + commissionOf(Number(fee), SALES_PERCENTAGE), 0);
      assert.is(Number((await app.db('partner_earnings').where({ account_id: seller.accountId }).whereNull('reverses_id').count({ n: '*' }))[0].n), fees.length);
      // An earning is completed exactly when its payment's funds cleared (handlers/ledger/clearing-partner-earnings.ts), else it awaits.
      const mismatched = await app.db('partner_earnings as e').join('payments as p', 'p.id', 'e.payment_id')
        .where({ 'e.account_id': seller.accountId }).whereNull('e.reverses_id')
        .whereRaw("(e.status = 'completed') <> (p.funds_cleared_at is not null)").pluck('e.id');
      assert.equal(mismatched, []);
      // What went back to buyers (refunds, chargebacks lost or closed) took back floor(C * back / total) of each
      // commission, exactly, from the partner's pending (handlers/partners/reverse.ts).
      const paid = await app.db('partner_earnings as e').join('payments as p', 'p.id', 'e.payment_id')
        .where({ 'e.account_id': seller.accountId }).whereNull('e.reverses_id')
        .select('e.commission_amount', 'p.total', app.db.raw(`least(p.total, p.refunded_amount + coalesce((select sum(d.amount) from disputes d
          where d.payment_id = p.id and d.status in ('lost', 'closed')), 0)) as back`),
        app.db.raw('coalesce((select sum(r.commission_amount) from partner_earnings r where r.reverses_id = e.id), 0) as reversed'));
      for (const e of paid) assert.is(-Number(e.reversed), shareOf(Number(e.commission_amount), Number(e.back), Number(e.total)));
      // The partner's wallet (pending and available together) holds what was earned less what was taken back.
      const held = await app.db('ledger_postings').where({ ledger_id: await ledgerOf(app.db, seller.partnerId) }).whereIn('bucket', ['pending', 'available']).sum({ n: 'amount' });
      assert.is(Number(held[0].n ?? 0), owed - paid.reduce((sum, e) => sum - Number(e.reversed), 0));
      reversals += paid.filter((e) => Number(e.reversed) < 0).length;
    }
  }), { ...replay, examples: [[EVERY_KIND]] });
  // The runs moved money every way (a property that never reached the ledger would pass vacuously).
  const count = async (table: string, where: Record<string, unknown> = {}) => Number((await app.db(table).where(where).count({ n: '*' }))[0].n);
  const settled = Number((await app.db('payments').whereNotNull('settlement_time_at').count({ n: '*' }))[0].n);
  const seen = { payments: settled, refunds: await count('refunds', { status: 'succeeded' }),
    payouts: await count('payouts'), transfers: await count('transfers'), disputes: await count('disputes'), partner_earnings: await count('partner_earnings') };
  console.log(`  money property: ${JSON.stringify({ ...seen, partner_reversals: reversals })}`);
  assert.ok(reversals > 0, 'no partner commission was reversed');
  for (const [what, n] of Object.entries(seen)) assert.ok(n > 0, `no ${what} happened`);
});

// Cards: random concurrent top-ups, authorisations (some beyond the balance, some on a frozen card) and
// the card network's settle and reverse steps, each step run twice as a re-run job would: the cards balance equals
// what was topped up less what settled, exactly, held equals what is pending, and nothing crossed a floor.
type CardCommand =
  | { kind: 'top_up'; cents: number }
  | { kind: 'authorize'; cents: number; reversing: boolean }
  | { kind: 'step'; pick: number }
  | { kind: 'freeze'; frozen: boolean };

const cardCommand: fc.Arbitrary<CardCommand> = fc.oneof(
  fc.record({ kind: fc.constant('top_up' as const), cents: fc.integer({ min: 1, max: 3_000 }) }),
  fc.record({ kind: fc.constant('authorize' as const), cents: fc.integer({ min: 1, max: 4_000 }), reversing: fc.boolean() }),
  fc.record({ kind: fc.constant('step' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('freeze' as const), frozen: fc.boolean() }),
);

/** Run first (commands go four at a time): top-ups, then an authorisation settled, one reversed and one declined
 * (beyond the balance). */
const EVERY_CARD_KIND: CardCommand[] = [
  { kind: 'top_up', cents: 2_000 }, { kind: 'top_up', cents: 100 }, { kind: 'top_up', cents: 1 }, { kind: 'top_up', cents: 1 },
  { kind: 'authorize', cents: 500, reversing: false }, { kind: 'authorize', cents: 300, reversing: true },
  { kind: 'authorize', cents: 4_000, reversing: false }, { kind: 'top_up', cents: 1 },
  { kind: 'step', pick: 0 }, { kind: 'step', pick: 1 },
];

t('cards: the cards balance equals top-ups less settlements, held equals pending authorisations, steps post once', async () => {
  const s = await makeSeller(app.db);
  await fundBalance(app.db, s.accountId, 1_000_000);
  const card = (await app.request('POST', '/cards', { token: s.key, version: VERSION, body: { account_id: s.accountId } })).body;
  const serverErrors: string[] = [];
  const check = (res: { status: number; body: unknown }) => {
    if (res.status >= 500) serverErrors.push(`${res.status} ${JSON.stringify(res.body)}`);
  };
  const run = async (c: CardCommand): Promise<void> => {
    if (c.kind === 'top_up') {
      check(await app.request('POST', '/card_top_ups', { token: s.key, version: VERSION, body: { account_id: s.accountId, amount: c.cents } }));
    } else if (c.kind === 'authorize') {
      check(await app.request('POST', '/sandbox/card_network/authorizations', { token: s.key, version: VERSION,
        body: { card_id: card.id, amount: c.cents, merchant_name: c.reversing ? REVERSING_MERCHANT : 'Shop' } }));
    } else if (c.kind === 'step') {
      const pending = await app.db('card_transactions').where({ card_id: card.id, status: 'pending' }).orderBy('id').pluck('id');
      if (pending.length) {
        const id = pending[c.pick % pending.length];
        await Promise.all([stepCardTransaction(app.db, id), stepCardTransaction(app.db, id)]);
      }
    } else {
      check(await app.request('PATCH', `/cards/${card.id}`, { token: s.key, version: VERSION, body: { frozen: c.frozen } }));
    }
  };
  const sum = async (where: Record<string, unknown>) =>
    Number((await app.db('card_transactions').where({ card_id: card.id, ...where }).sum({ n: 'amount' }))[0].n ?? 0);
  await fc.assert(fc.asyncProperty(fc.array(cardCommand, { minLength: 6, maxLength: 20 }), async (commands) => {
    for (let i = 0; i < commands.length; i += 4) await Promise.all(commands.slice(i, i + 4).map(run));
    const report = await verifyLedger(app.db);
    assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
    assert.equal(await app.db('ledger_balances').whereIn('bucket', ['available', 'in_transit', 'held']).where('amount', '<', 0), []);
    assert.equal(serverErrors, [], serverErrors.join('\n'));
    const cards = (await app.db('ledger_accounts').where({ account_id: s.accountId, kind: 'cards' }).first('id')).id;
    const bucket = async (b: string) => Number((await app.db('ledger_balances').where({ ledger_id: cards, bucket: b, currency: 'usd' }).first('amount'))?.amount ?? 0);
    const toppedUp = Number((await app.db('card_top_ups').where({ account_id: s.accountId }).sum({ n: 'amount' }))[0].n ?? 0);
    assert.is(await bucket('held'), await sum({ status: 'pending' }));
    assert.is(await bucket('available') + await bucket('held'), toppedUp - await sum({ status: 'settled' }));
    const steps = await app.db('ledger_postings').where('entry_id', 'like', 'citx_%').whereIn('bucket', ['card_clearing'])
      .sum({ n: 'amount' });
    assert.is(Number(steps[0].n ?? 0), await sum({ status: 'settled' }), 'each settlement posted once');
  }), { ...replay, examples: [[EVERY_CARD_KIND]] });
  const seen = { settled: await sum({ status: 'settled' }), reversed: await sum({ status: 'reversed' }), declined: await sum({ status: 'declined' }) };
  console.log(`  cards property: ${JSON.stringify(seen)}`);
  for (const [what, n] of Object.entries(seen)) assert.ok(n > 0, `no ${what} card transactions happened`);
});

// Deposits over the simulated crypto network and swaps, in a block of their own: random reports (some
// of one transaction, some concurrent), confirmations run concurrently and again, negative balances and swaps
// repaying or converting, leave every balance equal to its postings, no floor crossed, each transaction one deposit
// credited at most once, and the platform's crypto_clearing equal to what confirmed deposits credited.
type CryptoCommand =
  | { kind: 'report'; tx: number; twice: boolean }
  | { kind: 'confirm'; pick: number; twice: boolean }
  | { kind: 'owe'; side: number; cents: number; currency: number }
  | { kind: 'swap'; side: number; from: number; to: number; mode: number; cents: number };

const SWAP_CURRENCIES = ['usd', 'eur', 'gbp'];
const cryptoCommand: fc.Arbitrary<CryptoCommand> = fc.oneof(
  fc.record({ kind: fc.constant('report' as const), tx: fc.nat(12), twice: fc.boolean() }),
  fc.record({ kind: fc.constant('confirm' as const), pick: fc.nat(), twice: fc.boolean() }),
  fc.record({ kind: fc.constant('owe' as const), side: fc.nat(2), cents: fc.integer({ min: 1, max: 3_000 }), currency: fc.nat(2) }),
  fc.record({ kind: fc.constant('swap' as const), side: fc.nat(2), from: fc.nat(2), to: fc.nat(2), mode: fc.nat(2), cents: fc.integer({ min: 1, max: 4_000 }) }),
);

/** Run first (commands go four at a time): deposits under and over the minimum, all confirmed, a debt in EUR repaid
 * by a swap from USD and a plain swap, so that the checks after the runs never fail for want of one. */
const EVERY_CRYPTO_KIND: CryptoCommand[] = [
  { kind: 'report', tx: 0, twice: false }, { kind: 'report', tx: 3, twice: true }, { kind: 'report', tx: 1, twice: false },
  { kind: 'owe', side: 0, cents: 1_000, currency: 1 },
  { kind: 'confirm', pick: 0, twice: false }, { kind: 'confirm', pick: 1, twice: true }, { kind: 'confirm', pick: 2, twice: false },
  { kind: 'confirm', pick: 3, twice: false },
  { kind: 'swap', side: 0, from: 0, to: 1, mode: 2, cents: 1 }, { kind: 'swap', side: 0, from: 0, to: 2, mode: 0, cents: 100 },
];

t('deposits and swaps: balances equal their postings, floors hold, each transaction is credited once', async () => {
  const business = await makeSeller(app.db);
  const other = await makeSeller(app.db);
  const wallet = await makeUser(app.db);
  const sides = [{ id: business.accountId, token: business.key }, { id: other.accountId, token: other.key }, { id: wallet.id, token: wallet.token }];
  const addresses: string[] = [];
  for (const side of sides) {
    const res = await app.request('POST', '/deposits', { token: side.token, version: VERSION, body: { destination: side.id } });
    addresses.push(res.body.methods.crypto.find((m: { network: string }) => m.network === 'ethereum').address);
  }
  const serverErrors: string[] = [];
  const check = (what: string, res: { status: number; body: unknown }) => {
    if (res.status >= 500) serverErrors.push(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  let round = 0;
  const run = async (c: CryptoCommand): Promise<void> => {
    switch (c.kind) {
      case 'report': {
        // A transaction hash is one transfer: the same hash always carries the same details (5.00 to 59.00 USDC:
        // the first two under the minimum).
        const tx = `0x${round.toString(16).padStart(8, '0')}${c.tx.toString(16).padStart(56, '0')}`;
        const body = { network: 'ethereum', address: addresses[c.tx % 3], token: 'usdc', amount: dollars(500 + c.tx * 450), tx_hash: tx };
        const owner = sides[c.tx % 3];
        const send = () => app.request('POST', '/sandbox/crypto_network/transfers', { token: owner.token, version: VERSION, body });
        (await Promise.all(c.twice ? [send(), send()] : [send()])).forEach((r) => check('report', r));
        return;
      }
      case 'confirm': {
        const pending = await app.db('crypto_deposits').where({ status: 'pending' }).orderBy('id').select('id');
        if (!pending.length) return;
        const id = pending[c.pick % pending.length].id as string;
        await Promise.all(c.twice ? [confirmDeposit(app.db, id), confirmDeposit(app.db, id)] : [confirmDeposit(app.db, id)]);
        return;
      }
      case 'owe': {
        const ledger = await ledgerOf(app.db, sides[c.side].id);
        await postEntry(app.db, `le_owe_${randomToken(10)}`, SWAP_CURRENCIES[c.currency], [
          { ledger, bucket: 'pending', amount: -c.cents }, { ledger, bucket: 'processor_clearing', amount: c.cents }]);
        return;
      }
      case 'swap': {
        const side = sides[c.side];
        const amounts = [{ amount: dollars(c.cents) }, { to_amount: dollars(c.cents) }, {}][c.mode];
        check('swap', await app.request('POST', '/swaps', { token: side.token, version: VERSION,
          body: { account_id: side.id, from_token: SWAP_CURRENCIES[c.from], to_token: SWAP_CURRENCIES[c.to], ...amounts } }));
      }
    }
  };
  await fc.assert(fc.asyncProperty(fc.array(cryptoCommand, { minLength: 6, maxLength: 20 }), async (commands) => {
    round++;
    for (let i = 0; i < commands.length; i += 4) await Promise.all(commands.slice(i, i + 4).map(run));
    const report = await verifyLedger(app.db);
    assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
    assert.equal(await app.db('ledger_balances').whereIn('bucket', ['available', 'in_transit', 'held']).where('amount', '<', 0), []);
    assert.equal(serverErrors, [], serverErrors.join('\n'));
    const repeated = await app.db('crypto_deposits').groupBy('network', 'tx_hash').havingRaw('count(*) > 1').select('tx_hash');
    assert.equal(repeated, []);
    const credits = await app.db('ledger_postings').where('entry_id', 'like', 'cdep_%:credited').where('bucket', 'available').select('entry_id', 'amount');
    const confirmed = await app.db('crypto_deposits').where({ status: 'confirmed' }).select('id', 'amount');
    assert.equal(credits.map((p) => p.entry_id).sort(), confirmed.map((d) => `${d.id}:credited`).sort());
    assert.ok(confirmed.every((d) => Number(d.amount) >= 1_000));
    const clearing = await app.db('ledger_balances').where({ bucket: 'crypto_clearing', currency: 'usd' }).first('amount');
    assert.is(Number(clearing?.amount ?? 0), -confirmed.reduce((sum, d) => sum + Number(d.amount), 0));
  }), { ...replay, examples: [[EVERY_CRYPTO_KIND]] });
  const count = async (table: string, where: Record<string, unknown> = {}) => Number((await app.db(table).where(where).count({ n: '*' }))[0].n);
  const seen = { confirmed: await count('crypto_deposits', { status: 'confirmed' }), below_minimum: await count('crypto_deposits', { status: 'below_minimum' }),
    swaps: await count('swaps'), repayments: Number((await app.db('swaps').where('repaid_amount', '>', 0).count({ n: '*' }))[0].n) };
  console.log(`  deposits and swaps: ${JSON.stringify(seen)}`);
  for (const [what, n] of Object.entries(seen)) assert.ok(n > 0, `no ${what} happened`);
});

// Bounties: random pools posted, attempts started and proved, approvals (some twice at once), denials
// and closes, run a few at a time concurrently: every bounty's escrow equals what it paid out, what it returned and
// what is still held, workers hold exactly their approved rewards, and the ledger verifies.
type BountyCommand =
  | { kind: 'post'; dollars: number; slots: number }
  | { kind: 'start'; bounty: number; worker: number }
  | { kind: 'prove'; pick: number }
  | { kind: 'review'; pick: number; approve: boolean; twice: boolean }
  | { kind: 'close'; bounty: number };

const bountyCommand: fc.Arbitrary<BountyCommand> = fc.oneof(
  fc.record({ kind: fc.constant('post' as const), dollars: fc.integer({ min: 1, max: 30 }), slots: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('start' as const), bounty: fc.nat(), worker: fc.nat(3) }),
  fc.record({ kind: fc.constant('prove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('review' as const), pick: fc.nat(), approve: fc.boolean(), twice: fc.boolean() }),
  fc.record({ kind: fc.constant('close' as const), bounty: fc.nat() }),
);

/** Run first, four at a time: pools, then attempts, then proof, then an approval sent twice at once, a denial, an
 * approval on another bounty and a close, so the checks after the runs never fail for want of one. */
const EVERY_BOUNTY_KIND: BountyCommand[] = [
  { kind: 'post', dollars: 5, slots: 2 }, { kind: 'post', dollars: 3, slots: 1 }, { kind: 'post', dollars: 7, slots: 3 }, { kind: 'post', dollars: 1, slots: 1 },
  { kind: 'start', bounty: 0, worker: 0 }, { kind: 'start', bounty: 0, worker: 1 }, { kind: 'start', bounty: 2, worker: 2 }, { kind: 'start', bounty: 1, worker: 3 },
  { kind: 'prove', pick: 0 }, { kind: 'prove', pick: 1 }, { kind: 'prove', pick: 2 }, { kind: 'prove', pick: 3 },
  { kind: 'review', pick: 0, approve: true, twice: true }, { kind: 'review', pick: 1, approve: false, twice: false },
  { kind: 'review', pick: 2, approve: true, twice: false }, { kind: 'close', bounty: 3 },
];

t('bounties: escrow = paid out + returned + held, each approval paid once, whatever runs concurrently', async () => {
  const business = await makeSeller(app.db);
  await fundBalance(app.db, business.accountId, 1_000_000);
  const workers = [await makeUser(app.db), await makeUser(app.db), await makeUser(app.db), await makeUser(app.db)];
  const bounties: string[] = [];
  const submissions: { id: string; worker: number }[] = [];
  const serverErrors: string[] = [];
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await app.request(method, path, { token, version: VERSION, body });
    if (res.status >= 500) serverErrors.push(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  const run = async (c: BountyCommand) => {
    const bounty = bounties.length ? bounties['bounty' in c ? c.bounty % bounties.length : 0] : undefined;
    const picked = submissions.length && 'pick' in c ? submissions[c.pick % submissions.length] : undefined;
    if (c.kind === 'post') {
      const res = await call('POST', '/bounties', business.key, { account_id: business.accountId, title: 't', description: 'd', gross_reward_amount: c.dollars, accepted_submissions_limit: c.slots });
      if (res.status === 201) bounties.push(res.body.id);
    } else if (c.kind === 'start' && bounty) {
      const res = await call('POST', '/bounty_submissions', workers[c.worker].token, { bounty_id: bounty });
      if (res.status === 201) submissions.push({ id: res.body.id, worker: c.worker });
    } else if (c.kind === 'prove' && picked) {
      await call('POST', `/bounty_submissions/${picked.id}/submit`, workers[picked.worker].token, { deliverable_type: 'media', deliverable_urls: ['https://x.example/1'] });
    } else if (c.kind === 'review' && picked) {
      const body = c.approve ? { decision: 'approve' } : { decision: 'deny', denial_reason: 'no' };
      await Promise.all([call('POST', `/bounty_submissions/${picked.id}/review`, business.key, body),
        ...(c.twice ? [call('POST', `/bounty_submissions/${picked.id}/review`, business.key, body)] : [])]);
    } else if (c.kind === 'close' && bounty) {
      await call('POST', `/bounties/${bounty}/close`, business.key);
    }
  };
  await fc.assert(fc.asyncProperty(fc.array(bountyCommand, { minLength: 6, maxLength: 20 }), async (commands) => {
    for (let i = 0; i < commands.length; i += 4) await Promise.all(commands.slice(i, i + 4).map(run));
    const report = await verifyLedger(app.db);
    assert.equal([report.mismatches, report.unbalancedEntries, report.dailyTotalMismatches], [[], [], []]);
    assert.equal(serverErrors, [], serverErrors.join('\n'));
    const rows = await app.db('bounties').where({ account_id: business.accountId });
    let stillHeld = 0;
    for (const b of rows) {
      const approved = Number((await app.db('bounty_submissions').where({ bounty_id: b.id, status: 'approved' }).count({ n: '*' }))[0].n);
      assert.is(approved, b.accepted_submissions_count);
      assert.ok(approved <= b.accepted_submissions_limit);
      assert.is(Number(b.paid_out_amount), approved * b.gross_reward_amount * 100);
      const held = Number(b.escrow_amount) - Number(b.paid_out_amount) - Number(b.returned_amount);
      assert.is(held, b.status === 'open' ? Number(b.escrow_amount) - Number(b.paid_out_amount) : 0);
      stillHeld += held;
    }
    const heldNow = await app.db('ledger_balances').where({ ledger_id: await ledgerOf(app.db, business.accountId), bucket: 'held', currency: 'usd' }).first('amount');
    assert.is(Number(heldNow?.amount ?? 0), stillHeld);
    for (const [i, w] of workers.entries()) {
      const rewards = await app.db('bounty_submissions').join('bounties', 'bounties.id', 'bounty_submissions.bounty_id')
        .where({ 'bounty_submissions.user_id': w.id, 'bounty_submissions.status': 'approved' }).sum({ n: 'bounties.gross_reward_amount' });
      const wallet = await app.db('ledger_balances').where({ ledger_id: await ledgerOf(app.db, workers[i].id), bucket: 'available', currency: 'usd' }).first('amount');
      assert.is(Number(wallet?.amount ?? 0), Number(rewards[0].n ?? 0) * 100);
    }
  }), { ...replay, examples: [[EVERY_BOUNTY_KIND]] });
  const count = async (where: Record<string, unknown>) => Number((await app.db('bounty_submissions').where(where).count({ n: '*' }))[0].n);
  const seen = { approved: await count({ status: 'approved' }), denied: await count({ status: 'denied' }), closed: Number((await app.db('bounties').where({ status: 'closed' }).count({ n: '*' }))[0].n) };
  console.log(`  bounties: ${JSON.stringify(seen)}`);
  for (const [what, n] of Object.entries(seen)) assert.ok(n > 0, `no ${what} happened`);
});

t.run();
