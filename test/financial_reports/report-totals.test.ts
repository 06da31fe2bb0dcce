// A property: after a random mix of payments (some declined), refunds, clearing, payouts (paid, failed, reversed,
// canceled), transfers, crypto deposits (some under the minimum), swaps both ways, card top-ups and card purchases
// (settled or reversed), every account's report equals the sums computed directly from its ledger postings, to
// the minor unit, per currency and row type: for a window of partial days (read from the postings) and for a window
// of whole days (read from the daily totals the posting trigger keeps).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeUser } from '../helpers/fixtures.js';
import { pay, settleRefunds, CARDS, VERSION } from '../payments/payment-fixtures.js';
import { stepPayout } from '../../sandbox/payout_rail/index.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { report, row } from './report-fixtures.js';
import { clearEverySettled, dollars, makeMoneySeller, type MoneySeller } from '../money/money-sellers.js';
import { addressOf, send, txHash } from '../deposits/deposit-fixtures.js';
import { confirmDeposit } from '../../handlers/deposits/confirm-deposit.js';
import { requestCard } from '../cards/card-fixtures.js';
import { REVERSING_MERCHANT, stepCardTransaction } from '../../sandbox/card_network/index.js';

const t = suite('financial reports: totals equal the ledger');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

type Command =
  | { kind: 'pay'; seller: number; plan: number; declined: boolean }
  | { kind: 'refund'; seller: number; pick: number; cents: number }
  | { kind: 'clear' }
  | { kind: 'payout'; seller: number; method: number; cents: number }
  | { kind: 'rail'; pick: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'transfer'; from: number; to: number; cents: number }
  | { kind: 'deposit'; seller: number; cents: number }
  | { kind: 'swap'; seller: number; toEuro: boolean; cents: number }
  | { kind: 'card'; seller: number; topUp: number; cents: number; reversed: boolean };

const SELLERS = 2;
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), seller: fc.nat(SELLERS - 1), plan: fc.nat(2), declined: fc.boolean() }),
  fc.record({ kind: fc.constant('refund' as const), seller: fc.nat(SELLERS - 1), pick: fc.nat(), cents: fc.integer({ min: 1, max: 3_000 }) }),
  fc.constant({ kind: 'clear' as const }),
  fc.record({ kind: fc.constant('payout' as const), seller: fc.nat(SELLERS - 1), method: fc.nat(2), cents: fc.integer({ min: 100, max: 4_000 }) }),
  fc.record({ kind: fc.constant('rail' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('transfer' as const), from: fc.nat(SELLERS - 1), to: fc.nat(SELLERS), cents: fc.integer({ min: 1, max: 3_000 }) }),
  fc.record({ kind: fc.constant('deposit' as const), seller: fc.nat(SELLERS - 1), cents: fc.integer({ min: 500, max: 5_000 }) }),
  fc.record({ kind: fc.constant('swap' as const), seller: fc.nat(SELLERS - 1), toEuro: fc.boolean(), cents: fc.integer({ min: 100, max: 3_000 }) }),
  fc.record({ kind: fc.constant('card' as const), seller: fc.nat(SELLERS - 1), topUp: fc.integer({ min: 0, max: 2_000 }), cents: fc.integer({ min: 1, max: 2_500 }), reversed: fc.boolean() }),
);

/** Run first: one of every movement the report classifies, so the check below never passes for want of one. */
const EVERY_KIND: Command[] = [
  { kind: 'pay', seller: 0, plan: 0, declined: false },
  { kind: 'clear' },
  { kind: 'payout', seller: 0, method: 0, cents: 1_000 },
  { kind: 'rail', pick: 0 }, { kind: 'rail', pick: 0 }, { kind: 'rail', pick: 0 },
  { kind: 'refund', seller: 0, pick: 0, cents: 100 },
  { kind: 'transfer', from: 0, to: 1, cents: 100 },
  { kind: 'deposit', seller: 1, cents: 2_000 },
  { kind: 'deposit', seller: 1, cents: 900 },
  { kind: 'swap', seller: 1, toEuro: true, cents: 500 },
  { kind: 'card', seller: 0, topUp: 1_000, cents: 300, reversed: false },
  { kind: 'card', seller: 0, topUp: 0, cents: 200, reversed: true },
];


/** The row type of an entry, written out here independently of the database's mapping (bank payouts only). */
function typeOf(entryId: string): string {
  const [resource, step = ''] = entryId.split(':');
  const prefix = /^[a-z]+_/.exec(resource)?.[0];
  const byStep: Record<string, Record<string, string>> = {
    pay_: { settled: 'payment', cleared: 'funds_cleared' },
    rfnd_: { '': 'refund' },
    wdrl_: { requested: 'payout_requested', released: 'payout_released', completed: 'payout', reversed: 'payout_reversed' },
    xfer_: { '': 'transfer', returned: 'transfer_returned' },
    cdep_: { credited: 'trading_account_deposit', reversed: 'trading_account_deposit_offset' },
    swap_: { swapped: 'swap' },
    citx_: { authorized: 'card_transaction', settled: 'card_transaction', reversed: 'card_transaction' },
    ctop_: { top_up: 'card_top_up' },
  };
  if (prefix === 'le_') return 'adjustment';
  return byStep[prefix ?? '']?.[step] ?? 'other';
}

/** The report an account's postings in [from, to) add up to, summed here from ledger_postings. */
async function fromPostings(accountId: string, from: string, to: string) {
  const postings = await app.db('ledger_postings as p').join('ledger_accounts as l', 'l.id', 'p.ledger_id')
    .where('l.account_id', accountId).where('p.created_at', '>=', from).where('p.created_at', '<', to)
    .select('p.entry_id', 'p.ledger_id', 'p.bucket', 'p.currency', 'p.amount');
  const rows = new Map<string, { entries: Set<string>; m: Record<string, number> }>();
  for (const p of postings) {
    const key = `${p.currency}|${typeOf(p.entry_id)}`;
    const r = rows.get(key) ?? { entries: new Set<string>(), m: {} };
    r.entries.add(`${p.ledger_id}:${p.entry_id}`);
    if (['available', 'pending', 'in_transit', 'held', 'fees'].includes(p.bucket)) r.m[p.bucket] = (r.m[p.bucket] ?? 0) + Number(p.amount);
    rows.set(key, r);
  }
  const currencies = [...new Set([...rows.keys()].map((k) => k.split('|')[0]))].sort((a, b) => (a === 'usd' ? -1 : b === 'usd' ? 1 : a < b ? -1 : 1));
  return currencies.map((currency) => {
    const of = [...rows].filter(([k]) => k.startsWith(`${currency}|`)).map(([k, r]) => row(k.split('|')[1], r.entries.size, r.m, currency))
      .sort((a, b) => (a.type < b.type ? -1 : 1));
    return { currency, net: { ...of[0].net, amount: of.reduce((n, r) => n + r.net.amount, 0) }, rows: of };
  });
}

t('every account\'s report equals its postings\' sums, per currency and row type, over partial and whole days', async () => {
  const sellers: (MoneySeller & { address: string; cardId: string })[] = [];
  for (let i = 0; i < SELLERS; i++) {
    const s = await makeMoneySeller(app);
    const address = await addressOf(app, s.key, s.accountId);
    const cardId = (await requestCard(app, s.key, { account_id: s.accountId, name: 'Supplies' })).id as string;
    sellers.push({ ...s, address, cardId });
  }
  const user = await makeUser(app.db);
  const openPayouts = async () => (await app.db('payouts').whereIn('account_id', sellers.map((s) => s.accountId))
    .whereIn('status', ['requested', 'in_review', 'processing', 'completed']).whereNull('failure_code').select('id', 'account_id'));

  const run = async (c: Command): Promise<void> => {
    const s = sellers[(c as { seller?: number }).seller ?? 0];
    switch (c.kind) {
      case 'pay':
        await pay(app, s, { plan_id: s.planIds[c.plan], country: 'US' }, { card: c.declined ? CARDS.declined : CARDS.succeeds });
        return;
      case 'refund': {
        const ids = (await app.db('payments').where({ account_id: s.accountId, status: 'succeeded' }).select('id')).map((p) => p.id as string);
        if (!ids.length) return;
        const id = ids[c.pick % ids.length];
        await app.request('POST', `/payments/${id}/refund`, { token: s.key, version: VERSION, body: { partial_amount: c.cents } });
        await settleRefunds(app, id);
        return;
      }
      case 'clear':
        await clearEverySettled(app);
        return;
      case 'payout':
        await app.request('POST', '/payouts', { token: s.key, version: VERSION,
          body: { account_id: s.accountId, payout_method_id: s.methods[c.method], amount: dollars(c.cents) } });
        return;
      case 'rail': {
        const open = await openPayouts();
        if (open.length) await stepPayout(app.db, open[c.pick % open.length].id);
        return;
      }
      case 'cancel': {
        const open = await openPayouts();
        if (!open.length) return;
        const p = open[c.pick % open.length];
        const owner = sellers.find((x) => x.accountId === p.account_id)!;
        await app.request('POST', `/payouts/${p.id}/cancel`, { token: owner.key, version: VERSION });
        return;
      }
      case 'transfer': {
        const from = sellers[c.from];
        const to = c.to < SELLERS ? sellers[c.to].accountId : user.id;
        if (to === from.accountId) return;
        await app.request('POST', '/transfers', { token: from.key, version: VERSION,
          body: { type: 'balance', origin_id: from.accountId, destination_id: to, amount: c.cents } });
        return;
      }
      case 'deposit': {
        // Under 10.00 it is recorded and never credited; confirmed twice, it is credited once.
        const d = await send(app, s.key, { network: 'ethereum', address: s.address, token: 'USDC', amount: dollars(c.cents), tx_hash: txHash() });
        await confirmDeposit(app.db, d.id);
        await confirmDeposit(app.db, d.id);
        return;
      }
      case 'swap':
        // May be refused (insufficient_funds): a refusal moves nothing, which the report must show too.
        await app.request('POST', '/swaps', { token: s.key, version: VERSION,
          body: { account_id: s.accountId, from_token: c.toEuro ? 'USD' : 'EUR', to_token: c.toEuro ? 'EUR' : 'USD', amount: dollars(c.cents) } });
        return;
      case 'card': {
        if (c.topUp) await app.request('POST', '/card_top_ups', { token: s.key, version: VERSION, body: { account_id: s.accountId, amount: c.topUp } });
        const res = await app.request('POST', '/sandbox/card_network/authorizations', { token: s.key, version: VERSION,
          body: { card_id: s.cardId, amount: c.cents, merchant_name: c.reversed ? REVERSING_MERCHANT : 'Stationer' } });
        assert.is(res.status, 201, JSON.stringify(res.body));
        if (res.body.status === 'pending') await stepCardTransaction(app.db, res.body.id);
      }
    }
  };

  const day = 86_400_000;
  await fc.assert(fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 15 }), async (commands) => {
    for (const c of commands) await run(c);
    const now = Date.now();
    const today = Math.floor(now / day) * day;
    const windows = [
      [new Date(now - 3_600_000).toISOString(), new Date(now + 3_600_000).toISOString()], // partial days: postings
      [new Date(today - day).toISOString(), new Date(today + 2 * day).toISOString()], // whole days: daily totals
      [new Date(today - day / 2).toISOString(), new Date(today + day + day / 2).toISOString()], // both
    ];
    for (const s of sellers) {
      for (const [from, to] of windows) {
        const body = await report(app, s.key, { account_id: s.accountId, from, to });
        assert.equal(body.currencies, await fromPostings(s.accountId, from, to), `${s.accountId} ${from} ${to}`);
      }
    }
    assert.equal((await verifyLedger(app.db)).dailyTotalMismatches, [], 'every day\'s totals equal its postings');
  }), { numRuns: Number(process.env.REPORT_RUNS ?? 8), examples: [[EVERY_KIND]] });
  // The runs moved money every way the report classifies (else the property would pass vacuously).
  const types = (await app.db('ledger_daily_totals').distinct('row_type')).map((r) => r.row_type as string).sort();
  console.log(`  report totals: row types seen ${JSON.stringify(types)}`);
  for (const type of ['payment', 'refund', 'payout_requested', 'payout', 'transfer', 'adjustment', 'trading_account_deposit', 'swap', 'card_top_up', 'card_transaction']) {
    assert.ok(types.includes(type), `no ${type} happened`);
  }
});

t.run();
