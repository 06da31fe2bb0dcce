// Payout rails and saved payout methods: GET /payouts/supported_methods, POST and GET /payouts/methods, quotes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { saveMethod, VERSION } from './payout-fixtures.js';

const t = suite('payout methods');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const get = (path: string, token: string, query: Record<string, string | number | boolean> = {}) => app.request('GET', path, { token, version: VERSION, query });

t('supported methods: every rail with its fees and limits, narrowed by country, paginated', async () => {
  const o = await makeOwner(app.db);
  const all = await get('/payouts/supported_methods', o.key);
  assert.is(all.status, 200, JSON.stringify(all.body));
  assert.equal(all.body.data.map((r: any) => r.id), ['podst_us_ach', 'podst_debit_card', 'podst_sepa', 'podst_uk_fps', 'podst_wallet', 'podst_usdc', 'podst_bill_pay']);
  const ach = all.body.data[0];
  assert.equal([ach.object, ach.currency, ach.supports_instant_delivery, ach.min_amount], ['supported_payout_method', 'usd', true, '1.00']);
  assert.equal(ach.fee_structure, { standard: { percentage: '0', fixed_amount: '0.00', currency: 'usd' }, instant: { percentage: '1', fixed_amount: '0.25', currency: 'usd' } });
  const de = await get('/payouts/supported_methods', o.key, { country: 'DE' });
  assert.equal(de.body.data.map((r: any) => r.id), ['podst_sepa', 'podst_wallet', 'podst_usdc']);
  const first = await get('/payouts/supported_methods', o.key, { first: 3 });
  const rest = await get('/payouts/supported_methods', o.key, { first: 10, after: first.body.page_info.end_cursor });
  assert.equal([first.body.data.length, first.body.page_info.has_next_page, rest.body.data.length, rest.body.page_info.has_next_page], [3, true, 4, false]);
  assert.is((await get('/payouts/supported_methods', o.key, { country: 'de' })).status, 400);
});

t('save a method: masked reference, fees and arrival estimates; the first is the default; nicknames are unique', async () => {
  const o = await makeOwner(app.db);
  const m = await saveMethod(app, o.key, { account_id: o.accountId }, '000123456789');
  assert.match(m.id, /^potk_/);
  assert.equal([m.object, m.account_id, m.user_id, m.is_default, m.status, m.account_reference, m.destination_currency],
    ['payout_method', o.accountId, null, true, 'active', '••6789', 'usd']);
  assert.equal([m.first_name, m.last_name, m.country], [null, null, null]);
  assert.ok(Date.parse(m.estimated_arrival.instant) < Date.parse(m.estimated_arrival.standard));
  assert.is(m.fee_structure.instant.percentage, '1');
  const second = await saveMethod(app, o.key, { account_id: o.accountId }, '000987654321', 'podst_us_ach', { is_default: true });
  assert.is(second.is_default, true);
  const list = await get('/payouts/methods', o.key, { account_id: o.accountId });
  assert.equal(list.body.data.map((x: any) => [x.id, x.is_default]), [[second.id, true], [m.id, false]]);
  const clash = await app.request('POST', '/payouts/methods', { token: o.key, version: VERSION, body: {
    account_id: o.accountId, supported_payout_method_id: 'podst_us_ach', nickname: second.nickname.toUpperCase(), fields: { account_number: '5555', routing_number: '110000000' } } });
  assert.equal([clash.status, clash.body.error.param], [409, 'nickname']);
});

t('bill pay: a recipient method names the recipient, has no user_id and is never the default', async () => {
  const alice = await makeUser(app.db);
  const wallet = await saveMethod(app, alice.token, { user_id: alice.id }, 'alice@wallet', 'podst_wallet');
  const bill = await saveMethod(app, alice.token, { user_id: alice.id }, '000555555555', 'podst_bill_pay',
    { recipient: { first_name: 'Rita', last_name: 'Landlord', country: 'US' } });
  assert.equal([bill.first_name, bill.last_name, bill.country, bill.user_id, bill.is_default], ['Rita', 'Landlord', 'US', null, false]);
  assert.is(wallet.is_default, true);
  const noRecipient = await app.request('POST', '/payouts/methods', { token: alice.token, version: VERSION, body: {
    user_id: alice.id, supported_payout_method_id: 'podst_bill_pay', nickname: 'Rent', fields: { account_number: '000555555556' } } });
  assert.equal([noRecipient.status, noRecipient.body.error.param], [400, 'recipient']);
  const stray = await app.request('POST', '/payouts/methods', { token: alice.token, version: VERSION, body: {
    user_id: alice.id, supported_payout_method_id: 'podst_wallet', nickname: 'W2', fields: { account_number: 'x-1234' }, recipient: { first_name: 'A', last_name: 'B', country: 'US' } } });
  assert.equal([stray.status, stray.body.error.param], [400, 'recipient']);
  // Before 2026-09-02 there were no recipients (#8).
  const old = await app.request('POST', '/payouts/methods', { token: alice.token, version: '2026-08-28', body: {
    user_id: alice.id, supported_payout_method_id: 'podst_bill_pay', nickname: 'Old', fields: { account_number: '000555555557' }, recipient: { first_name: 'A', last_name: 'B', country: 'US' } } });
  assert.equal([old.status, old.body.error.param], [400, 'recipient']);
});

t('rules: unknown rail, a US account without routing number, a wrong currency, another owner, include_available', async () => {
  const o = await makeOwner(app.db);
  const base = { account_id: o.accountId, supported_payout_method_id: 'podst_us_ach', nickname: 'Main', fields: { account_number: '12345678', routing_number: '110000000' } };
  const cases: [Record<string, unknown>, number, string][] = [
    [{ ...base, supported_payout_method_id: 'podst_nothing' }, 404, 'supported_payout_method_id'],
    [{ ...base, fields: { account_number: '12345678' } }, 400, 'fields.routing_number'],
    [{ ...base, destination_currency: 'eur' }, 400, 'destination_currency'],
    [{ ...base, nickname: '' }, 400, 'nickname'],
  ];
  for (const [body, status, param] of cases) {
    const res = await app.request('POST', '/payouts/methods', { token: o.key, version: VERSION, body });
    assert.equal([res.status, res.body.error?.param], [status, param], JSON.stringify(body));
  }
  const stranger = await makeOwner(app.db);
  assert.is((await app.request('POST', '/payouts/methods', { token: stranger.key, version: VERSION, body: base })).status, 404);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  assert.is((await app.request('POST', '/payouts/methods', { token: viewer.secret, version: VERSION, body: base })).status, 403);
  const include = await get('/payouts/methods', o.key, { account_id: o.accountId, include_available: true });
  assert.equal([include.status, include.body.error.param], [400, 'include_available']);
  assert.is((await get('/payouts/methods', stranger.key, { account_id: o.accountId })).status, 404);
});

t('a quote: with amount each method says its fee and what arrives per speed', async () => {
  const o = await makeOwner(app.db);
  await saveMethod(app, o.key, { account_id: o.accountId }, '000123450000');
  const res = await get('/payouts/methods', o.key, { account_id: o.accountId, amount: '200.00' });
  assert.equal(res.body.data[0].quote, {
    amount: '200.00', currency: 'usd', exchange_rate: 1, min_limit: '1.00', max_limit: '100000.00',
    standard: { fee_amount: '0.00', net_amount: '200.00' }, instant: { fee_amount: '2.25', net_amount: '197.75' },
  });
  assert.is((await get('/payouts/methods', o.key, { account_id: o.accountId })).body.data[0].quote, null);
  // #49: before 2026-07-30 no fee_structure or estimated_arrival on the method; each quote speed has its arrival.
  const old = await get('/payouts/methods', o.key, { account_id: o.accountId, amount: '200.00' }).then(() =>
    app.request('GET', '/payouts/methods', { token: o.key, version: '2026-07-23', query: { account_id: o.accountId, amount: '200.00' } }));
  const m = old.body.data[0];
  assert.equal(['fee_structure' in m, 'estimated_arrival' in m, 'supported_payout_method' in m], [false, false, false]);
  assert.ok(Date.parse(m.quote.instant.estimated_arrival) > Date.now());
  assert.equal(m.payout_destination, { delivery_type: 'bank_account', name: 'US bank account (ACH)', icon_url: null, supports_instant_delivery: true, supports_standard_delivery: true });
});

t('#48 before 2026-07-30: destination_id names the rail; the supported methods endpoint does not exist', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('POST', '/payouts/methods', { token: o.key, version: '2026-07-20', body: {
    account_id: o.accountId, destination_id: 'podst_wallet', nickname: 'Old wallet', fields: { account_number: 'old-wallet-1' } } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(res.body.payout_destination.delivery_type, 'digital_wallet');
  assert.is((await app.request('GET', '/payouts/supported_methods', { token: o.key, version: '2026-07-20' })).status, 404);
});

t.run();
