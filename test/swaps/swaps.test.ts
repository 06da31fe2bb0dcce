// POST /swaps, POST /swaps/quote, GET /swaps and GET /swaps/{id} at the latest version: mid-market conversion with
// exact rounding, repaying a negative balance (to_amount, or all of it), the ledger's legs, access and errors.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { divideHalfEven } from '../../handlers/swaps/fx.js';
import { bucketOf, owe, VERSION } from './swap-fixtures.js';

const t = suite('swaps');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const swap = (token: string, body: Record<string, unknown>) => app.request('POST', '/swaps', { token, version: VERSION, body });
const quote = (token: string, body: Record<string, unknown>) => app.request('POST', '/swaps/quote', { token, version: VERSION, body });
const ledgerClean = async () => {
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
};

t('rates round half-even to 8 decimals; amounts out round down, amounts in round up', async () => {
  assert.equal([divideHalfEven(5n, 2n), divideHalfEven(7n, 2n), divideHalfEven(3n, 2n), divideHalfEven(7n, 3n), divideHalfEven(8n, 3n)], [2n, 4n, 2n, 2n, 3n]);
  const o = await makeOwner(app.db);
  const cases: [Record<string, string>, string, string, string][] = [
    // USD -> EUR: 1 / 1.08 = 0.925925925... -> 0.92592593; 100.00 USD x that = 92.592593 -> 92.59 (down)
    [{ from_token: 'USD', to_token: 'eur', amount: '100.00' }, '0.92592593', '100.00', '92.59'],
    // to_amount 92.59 EUR needs 99.99720... USD -> 100.00 (up)
    [{ from_token: 'usd', to_token: 'EUR', to_amount: '92.59' }, '0.92592593', '100.00', '92.59'],
    // GBP -> USD: exactly 1.27
    [{ from_token: 'GBP', to_token: 'USD', amount: '10.01' }, '1.27000000', '10.01', '12.71'],
    // EUR -> JPY (no minor unit): 1.08 / 0.0067 = 161.194029850... -> 161.19402985; 10.00 EUR -> 1611.94 -> 1611
    [{ from_token: 'EUR', to_token: 'JPY', amount: '10' }, '161.19402985', '10.00', '1611'],
    // USDC is held as usd
    [{ from_token: 'USDC', to_token: 'EUR', amount: '1.08' }, '0.92592593', '1.08', '1.00'],
  ];
  for (const [body, rate, amountIn, amountOut] of cases) {
    const res = await quote(o.key, body);
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal([res.body.object, res.body.rate, res.body.amount_in, res.body.amount_out, res.body.amount_out_min, res.body.fee_bps],
      ['swap_quote', rate, amountIn, amountOut, amountOut, 0], JSON.stringify(body));
  }
  const usdc = (await quote(o.key, { from_token: 'usdc', to_token: 'eur', amount: '5' })).body.from_token;
  assert.equal(usdc, { symbol: 'USDC', currency: 'usd', decimals: 2 });
  assert.is((await app.db('swaps')).length, 0); // a quote writes nothing
});

t('a swap takes amount from one currency and credits the other, balanced against the platform\'s fx_clearing', async () => {
  const o = await makeOwner(app.db);
  await fundBalance(app.db, o.accountId, 50_000);
  const res = await swap(o.key, { account_id: o.accountId, from_token: 'USD', to_token: 'EUR', amount: '100.00' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const s = res.body;
  assert.match(s.id, /^swap_/);
  assert.equal([s.object, s.account_id, s.status, s.amount_in, s.amount_out, s.amount_out_expected, s.repaid_amount, s.rate, s.tx_hashes, s.error],
    ['swap', o.accountId, 'completed', '100.00', '92.59', '92.59', '0.00', '0.92592593', [], null]);
  assert.equal([await bucketOf(app.db, o.accountId, 'usd'), await bucketOf(app.db, o.accountId, 'eur')], [40_000, 9_259]);
  const legs = await app.db('ledger_postings').where({ entry_id: `${s.id}:swapped` }).orderBy(['currency', 'amount']).select('currency', 'bucket', 'amount');
  assert.equal(legs.map((p) => [p.currency, p.bucket, Number(p.amount)]),
    [['eur', 'fx_clearing', -9_259], ['eur', 'available', 9_259], ['usd', 'available', -10_000], ['usd', 'fx_clearing', 10_000]]);
  const read = await app.request('GET', `/swaps/${s.id}`, { token: o.key, version: VERSION });
  assert.equal(read.body, s);
  await ledgerClean();
});

t('to_amount repays part of a negative balance; omitting both repays the rest; then there is nothing to repay', async () => {
  const o = await makeOwner(app.db);
  await fundBalance(app.db, o.accountId, 20_000);
  await owe(app.db, o.accountId, 5_000, 'eur');
  const part = await swap(o.key, { from_token: 'usd', to_token: 'eur', to_amount: '20.00' });
  assert.is(part.status, 201, JSON.stringify(part.body));
  // 20.00 EUR needs 2000 x 10^8 / 92592593 = 2159.99997 cents -> 21.60 USD
  assert.equal([part.body.account_id, part.body.amount_in, part.body.amount_out, part.body.repaid_amount], [o.accountId, '21.60', '20.00', '20.00']);
  assert.equal([await bucketOf(app.db, o.accountId, 'eur', 'pending'), await bucketOf(app.db, o.accountId, 'eur')], [-3_000, 0]);
  const rest = await swap(o.key, { from_token: 'usd', to_token: 'eur' });
  assert.is(rest.status, 201, JSON.stringify(rest.body));
  assert.equal([rest.body.amount_in, rest.body.amount_out, rest.body.repaid_amount], ['32.40', '30.00', '30.00']);
  assert.equal([await bucketOf(app.db, o.accountId, 'eur', 'pending'), await bucketOf(app.db, o.accountId, 'usd')], [0, 20_000 - 2_160 - 3_240]);
  const nothing = await swap(o.key, { from_token: 'usd', to_token: 'eur' });
  assert.equal([nothing.status, nothing.body.error.param], [400, 'to_token']);
  await ledgerClean();
});

t('proceeds of amount repay a negative balance first; the rest is available', async () => {
  const o = await makeOwner(app.db);
  await fundBalance(app.db, o.accountId, 20_000);
  await owe(app.db, o.accountId, 3_000, 'eur');
  const s = (await swap(o.key, { from_token: 'usd', to_token: 'eur', amount: '100' })).body;
  assert.equal([s.amount_out, s.repaid_amount], ['92.59', '30.00']);
  assert.equal([await bucketOf(app.db, o.accountId, 'eur', 'pending'), await bucketOf(app.db, o.accountId, 'eur')], [0, 6_259]);
});

t('concurrent repayments of one negative balance repay it once', async () => {
  const o = await makeOwner(app.db);
  await fundBalance(app.db, o.accountId, 100_000);
  await owe(app.db, o.accountId, 5_000, 'gbp');
  const results = await Promise.all(Array.from({ length: 6 }, () => swap(o.key, { from_token: 'usd', to_token: 'gbp' })));
  assert.equal(results.map((r) => r.status).sort(), [201, 400, 400, 400, 400, 400]);
  assert.is(await bucketOf(app.db, o.accountId, 'gbp', 'pending'), 0);
  await ledgerClean();
});

t('concurrent swaps of one pair in both directions, on two balances, all complete (no deadlock)', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  await fundBalance(app.db, a.accountId, 100_000);
  await fundBalance(app.db, b.accountId, 100_000, 'eur');
  const results = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2
    ? swap(a.key, { from_token: 'usd', to_token: 'eur', amount: '10' })
    : swap(b.key, { from_token: 'eur', to_token: 'usd', amount: '10' }))));
  assert.equal(results.map((r) => r.status), Array(16).fill(201), JSON.stringify(results.find((r) => r.status !== 201)?.body));
  assert.equal([await bucketOf(app.db, a.accountId, 'usd'), await bucketOf(app.db, a.accountId, 'eur')], [100_000 - 8_000, 8 * 925]);
  assert.equal([await bucketOf(app.db, b.accountId, 'eur'), await bucketOf(app.db, b.accountId, 'usd')], [100_000 - 8_000, 8 * 1_080]);
  await ledgerClean();
});

t('amount and to_amount together, unknown tokens, one currency, too little and no balance are refused, writing nothing', async () => {
  const o = await makeOwner(app.db);
  await fundBalance(app.db, o.accountId, 1_000);
  const cases: [Record<string, unknown>, string, string][] = [
    [{ from_token: 'usd', to_token: 'eur', amount: '1', to_amount: '1' }, 'invalid_request', 'to_amount'],
    [{ from_token: 'xaut', to_token: 'eur', amount: '1' }, 'invalid_request', 'from_token'],
    [{ from_token: 'usd', to_token: 'btc', amount: '1' }, 'invalid_request', 'to_token'],
    [{ from_token: 'usdc', to_token: 'usd', amount: '1' }, 'invalid_request', 'to_token'],
    [{ from_token: 'usd', to_token: 'eur', amount: '1.001' }, 'invalid_request', 'amount'],
    [{ from_token: 'usd', to_token: 'jpy', to_amount: '1.5' }, 'invalid_request', 'to_amount'],
    [{ from_token: 'jpy', to_token: 'usd', amount: '1' }, 'invalid_request', 'amount'], // 1 JPY gives less than a cent
    [{ from_token: 'usd', to_token: 'eur', amount: '0' }, 'invalid_request', 'amount'],
    [{ from_token: 'usd', to_token: 'eur', amount: '10.01' }, 'insufficient_funds', 'amount'],
    [{ from_token: 'usd', to_token: 'eur', to_amount: '9.30' }, 'insufficient_funds', 'to_amount'],
    [{ from_token: 'eur', to_token: 'usd', amount: '1' }, 'insufficient_funds', 'amount'],
    [{ to_token: 'usd', amount: '1' }, 'invalid_request', 'from_token'],
  ];
  for (const [body, type, param] of cases) {
    const res = await swap(o.key, { account_id: o.accountId, ...body });
    assert.equal([res.status, res.body.error?.type, res.body.error?.param], [400, type, param], JSON.stringify(body));
  }
  const both = await quote(o.key, { from_token: 'usd', to_token: 'eur', amount: '1', to_amount: '1' });
  assert.equal([both.status, both.body.error.param], [400, 'to_amount']);
  const neither = await quote(o.key, { from_token: 'usd', to_token: 'eur' });
  assert.equal([neither.status, neither.body.error.param], [400, 'amount']);
  assert.is((await app.db('swaps').where({ owner_id: o.accountId })).length, 0);
  assert.is(await bucketOf(app.db, o.accountId, 'usd'), 1_000);
});

t('a user swaps in their own wallet; keys and roles without the trading scopes are refused', async () => {
  const u = await makeUser(app.db);
  await fundBalance(app.db, u.id, 10_000);
  const mine = await swap(u.token, { from_token: 'usd', to_token: 'cad', amount: '10' });
  assert.is(mine.status, 201, JSON.stringify(mine.body));
  assert.equal([mine.body.account_id, mine.body.amount_out], [u.id, '13.69']); // 1 / 0.73 = 1.36986301; 10 USD -> 13.6986301 -> 13.69
  const o = await makeOwner(app.db);
  assert.equal((await swap(o.key, { account_id: u.id, from_token: 'usd', to_token: 'cad', amount: '1' })).body.error.param, 'account_id');
  assert.is((await app.request('GET', `/swaps/${mine.body.id}`, { token: o.key, version: VERSION })).status, 404);
  assert.is((await app.request('GET', `/swaps/${mine.body.id}`, { token: (await makeUser(app.db)).token, version: VERSION })).status, 404);
  assert.equal((await app.request('GET', '/swaps', { token: u.token, version: VERSION })).body.data.map((s: any) => s.id), [mine.body.id]);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  for (const [method, path, body] of [['POST', '/swaps', { from_token: 'usd', to_token: 'eur', amount: '1' }], ['POST', '/swaps/quote', { from_token: 'usd', to_token: 'eur', amount: '1' }], ['GET', '/swaps', undefined]] as const) {
    const res = await app.request(method, path, { token: viewer.secret, version: VERSION, body });
    assert.equal([res.status, res.body.error.type], [403, 'permission_denied'], path);
  }
  const stranger = await makeOwner(app.db);
  const other = await swap(stranger.key, { account_id: o.accountId, from_token: 'usd', to_token: 'eur', amount: '1' });
  assert.equal([other.status, other.body.error.param], [404, 'account_id']);
});

t('GET /swaps lists one balance newest first, by keyset pages', async () => {
  const o = await makeOwner(app.db);
  await fundBalance(app.db, o.accountId, 10_000);
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push((await swap(o.key, { from_token: 'usd', to_token: 'eur', amount: '1' })).body.id);
  const first = await app.request('GET', '/swaps', { token: o.key, version: VERSION, query: { account_id: o.accountId, first: 2 } });
  assert.equal([first.body.data.map((s: any) => s.id), first.body.page_info.has_next_page], [[ids[2], ids[1]], true]);
  const next = await app.request('GET', '/swaps', { token: o.key, version: VERSION, query: { account_id: o.accountId, first: 2, after: first.body.page_info.end_cursor } });
  assert.equal(next.body.data.map((s: any) => s.id), [ids[0]]);
  assert.is((await app.request('GET', '/swaps/swap_missing', { token: o.key, version: VERSION })).status, 404);
});

t.run();
