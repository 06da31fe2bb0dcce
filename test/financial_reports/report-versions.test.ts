// Financial reports at older pins: before 2026-08-25 (entry 25) the trading-account rows and their offsets are one
// topup or onchain_withdrawal row; before 2026-08-21 (entry 35) the window is from_date and to_date, UTC dates, both
// inclusive. Row types of real stablecoin and bank payouts, and of deposits as the deposits area names them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { payoutOwner, saveMethod, settle } from '../payouts/payout-fixtures.js';
import { TEST_DESTINATIONS } from '../../sandbox/payout_rail/index.js';
import { breakdown, postAt, report, row, VERSION } from './report-fixtures.js';

const t = suite('financial reports at older versions');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const BEFORE_25 = '2026-08-21';
const BEFORE_35 = '2026-08-14';

async function tradingAccount() {
  const shop = await makeOwner(app.db);
  const id = shop.accountId;
  await postAt(app, id, 'cdep_d1:credited', '2026-05-10T09:00:00Z', [{ bucket: 'processor_clearing', amount: -5000 }, { bucket: 'available', amount: 5000 }]);
  await postAt(app, id, 'cdep_d2:credited', '2026-05-10T10:00:00Z', [{ bucket: 'processor_clearing', amount: -2000 }, { bucket: 'available', amount: 2000 }]);
  await postAt(app, id, 'cdep_d2:reversed', '2026-05-11T10:00:00Z', [{ bucket: 'available', amount: -2000 }, { bucket: 'processor_clearing', amount: 2000 }]);
  await postAt(app, id, 'swap_s1', '2026-05-11T11:00:00Z', [{ bucket: 'available', amount: -1000 }, { bucket: 'processor_clearing', amount: 1000 }]);
  await postAt(app, id, 'citx_c1:settled', '2026-05-11T12:00:00Z', [{ bucket: 'available', amount: -300 }, { bucket: 'processor_clearing', amount: 300 }]);
  return shop;
}

t('#25 at the latest: trading_account_deposit and its _offset are rows of their own; swaps and card transactions too', async () => {
  const shop = await tradingAccount();
  const body = await report(app, shop.key, { account_id: shop.accountId, from: '2026-05-10T00:00:00Z', to: '2026-05-12T00:00:00Z' });
  assert.equal(body.currencies[0].rows, [
    row('card_transaction', 1, { available: -300 }), row('swap', 1, { available: -1000 }),
    row('trading_account_deposit', 2, { available: 7000 }), row('trading_account_deposit_offset', 1, { available: -2000 }),
  ]);
});

t('#25 before 2026-08-25: one topup row (deposits and their offsets summed), in the report and in each day', async () => {
  const shop = await tradingAccount();
  const window = { account_id: shop.accountId, from: '2026-05-10T00:00:00Z', to: '2026-05-12T00:00:00Z' };
  const body = await report(app, shop.key, window, { version: BEFORE_25 });
  assert.equal(body.currencies[0].rows, [
    row('card_transaction', 1, { available: -300 }), row('swap', 1, { available: -1000 }), row('topup', 3, { available: 5000 }),
  ]);
  assert.is(body.currencies[0].net.amount, 3700);
  assert.equal([body.from, body.to], ['2026-05-10T00:00:00.000Z', '2026-05-12T00:00:00.000Z'], 'from and to since 2026-08-21');
  const days = await breakdown(app, shop.key, window, { version: BEFORE_25 });
  assert.equal(days.data.map((d: any) => [d.date, d.currencies[0].rows.map((r: any) => [r.type, r.count, r.net.amount])]), [
    ['2026-05-10', [['topup', 2, 7000]]],
    ['2026-05-11', [['card_transaction', 1, -300], ['swap', 1, -1000], ['topup', 1, -2000]]],
  ]);
});

t('stablecoin payouts are trading_account_withdrawal rows (onchain_withdrawal before 2026-08-25); bank payouts are payouts', async () => {
  const o = await payoutOwner(app, 100_000);
  const usdc = await saveMethod(app, o.key, { account_id: o.accountId }, '0x52908400098527886E0F7030069857D2E4169EE7', 'podst_usdc');
  const stablecoin = await app.request('POST', '/payouts', { token: o.key, version: VERSION, body: { account_id: o.accountId, payout_method_id: usdc.id, amount: '50.00', speed: 'instant' } });
  assert.is(stablecoin.status, 201, JSON.stringify(stablecoin.body));
  assert.is(await settle(app, stablecoin.body.id), 'completed');
  const bank = await app.request('POST', '/payouts', { token: o.key, version: VERSION, body: { account_id: o.accountId, payout_method_id: o.methodId, amount: '20.00' } });
  assert.is(await settle(app, bank.body.id), 'completed');
  const returned = await saveMethod(app, o.key, { account_id: o.accountId }, TEST_DESTINATIONS.reversed);
  const reversed = await app.request('POST', '/payouts', { token: o.key, version: VERSION, body: { account_id: o.accountId, payout_method_id: returned.id, amount: '10.00' } });
  assert.is(await settle(app, reversed.body.id), 'reversed');
  const window = { account_id: o.accountId, from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 3_600_000).toISOString() };
  const head = await report(app, o.key, window);
  const types = (body: any) => body.currencies[0].rows.map((r: any) => [r.type, r.count, r.net.amount]);
  assert.equal(types(head), [
    ['adjustment', 1, 100_000], ['payout', 2, -3_000], ['payout_requested', 3, 0], ['payout_reversed', 1, 1_000],
    ['trading_account_withdrawal', 1, -5_000],
  ]);
  assert.equal(types(await report(app, o.key, window, { version: BEFORE_25 })), [
    ['adjustment', 1, 100_000], ['onchain_withdrawal', 1, -5_000], ['payout', 2, -3_000], ['payout_requested', 3, 0], ['payout_reversed', 1, 1_000],
  ]);
});

t('#35 before 2026-08-21: from_date and to_date, UTC dates, both inclusive; from and to are not taken', async () => {
  const shop = await tradingAccount();
  const body = await report(app, shop.key, { account_id: shop.accountId, from_date: '2026-05-10', to_date: '2026-05-10' }, { version: BEFORE_35 });
  assert.equal(body, {
    object: 'financial_report', account_id: shop.accountId, from_date: '2026-05-10', to_date: '2026-05-10',
    currencies: [{ currency: 'usd', net: { amount: 7000, currency: 'usd', decimals: 2, display_decimals: 2 }, rows: [row('topup', 2, { available: 7000 })] }],
  });
  const both = await report(app, shop.key, { account_id: shop.accountId, from_date: '2026-05-10', to_date: '2026-05-11' }, { version: BEFORE_35 });
  assert.is(both.currencies[0].net.amount, 3700);
  const days = await breakdown(app, shop.key, { account_id: shop.accountId, from_date: '2026-05-11', to_date: '2026-05-11' }, { version: BEFORE_35 });
  assert.equal(days.data.map((d: any) => d.date), ['2026-05-11']);
  for (const [path, query, param] of [
    ['/financial_reports', { account_id: shop.accountId, from_date: '2026-05-11', to_date: '2026-05-10' }, 'to_date'],
    ['/financial_reports/breakdown', { account_id: shop.accountId, from_date: '2026-05-11', to_date: '2026-05-10' }, 'to_date'],
    ['/financial_reports', { account_id: shop.accountId, from_date: '2026-05-10T00:00:00Z', to_date: '2026-05-11' }, 'from_date'],
    ['/financial_reports', { account_id: shop.accountId, from_date: '2026-02-30', to_date: '2026-05-11' }, 'from_date'],
    ['/financial_reports', { account_id: shop.accountId, from_date: '2026-05-10', to_date: '9999-12-31' }, 'to_date'],
    ['/financial_reports', { account_id: shop.accountId, from: '2026-05-10T00:00:00Z', to: '2026-05-12T00:00:00Z' }, 'from'],
  ] as [string, Record<string, string>, string][]) {
    const res = await app.request('GET', path, { token: shop.key, version: BEFORE_35, query });
    assert.equal([res.status, res.body.error?.type], [400, 'invalid_request'], `${path} ${JSON.stringify(query)}: ${JSON.stringify(res.body)}`);
    if (param !== 'from') assert.is(res.body.error.param, param, JSON.stringify(query));
  }
  const latest = await app.request('GET', '/financial_reports', { token: shop.key, version: VERSION, query: { account_id: shop.accountId, from_date: '2026-05-10', to_date: '2026-05-11' } });
  assert.is(latest.status, 400, 'from_date is not taken at the latest version');
});

t.run();
