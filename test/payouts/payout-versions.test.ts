// Payouts at older pins: float money and the earlier status words before status v2 (#40), the body idempotency
// key, payout_token before 2026-07-30 (#48), and GET /withdrawals/{id} in the legacy shape.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { available, payoutOwner, saveMethod, settle, VERSION } from './payout-fixtures.js';

const t = suite('payouts at older pins');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('#40 before 2026-08-21: a number amount, the key in the body, float money and the older status words', async () => {
  const o = await payoutOwner(app, 100_000);
  const body = { account_id: o.accountId, payout_method_id: o.methodId, amount: 25.5, speed: 'instant', idempotency_key: 'old-key-1' };
  const res = await app.request('POST', '/payouts', { token: o.key, version: '2026-08-14', body });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal([res.body.amount, res.body.fee_amount, res.body.net_amount, res.body.status, 'status_detail' in res.body], [25.5, 0.51, 24.99, 'requested', false]);
  const retry = await app.request('POST', '/payouts', { token: o.key, version: '2026-08-14', body });
  assert.equal([retry.status, retry.headers.get('idempotent-replayed'), retry.body.id], [201, 'true', res.body.id]);
  assert.is(await available(app, o.ledger), 100_000 - 2_550);
  await settle(app, res.body.id);
  const later = await app.request('GET', `/payouts/${res.body.id}`, { token: o.key, version: '2026-08-14' });
  assert.equal([later.body.status, later.body.amount], ['completed', 25.5]);
  const head = await app.request('GET', `/payouts/${res.body.id}`, { token: o.key, version: VERSION });
  assert.equal([head.body.status, head.body.amount, head.body.payout_method.id], ['completed', '25.50', o.methodId]);
  const tooPrecise = await app.request('POST', '/payouts', { token: o.key, version: '2026-08-14', body: { ...body, amount: 1.005, idempotency_key: 'old-key-2' } });
  assert.equal([tooPrecise.status, tooPrecise.body.error.param], [400, 'amount']);
});

t('#48 before 2026-07-30: the method is payout_token with its payout_destination', async () => {
  const o = await payoutOwner(app, 100_000);
  const res = await app.request('POST', '/payouts', { token: o.key, version: '2026-07-20', body: { account_id: o.accountId, payout_method_id: o.methodId, amount: 10 } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal(['payout_method' in res.body, res.body.payout_token.id, res.body.payout_token.payout_destination.delivery_type], [false, o.methodId, 'bank_account']);
  assert.is(res.body.amount, 10);
});

t('#48 before 2026-07-30: include_available puts the rails on the page as available_destinations, quoted with an amount', async () => {
  const o = await payoutOwner(app, 100_000);
  const list = (query: Record<string, string | boolean | undefined>, version = '2026-07-20') =>
    app.request('GET', '/payouts/methods', { token: o.key, version, query: { account_id: o.accountId, ...query } });
  const plain = await list({});
  assert.equal([plain.status, plain.body.data.length, 'available_destinations' in plain.body], [200, 1, false]);
  const rails = (await app.request('GET', '/payouts/supported_methods', { token: o.key, version: VERSION, query: { first: 100 } })).body.data;
  const all = await list({ include_available: true });
  assert.is(all.status, 200, JSON.stringify(all.body));
  assert.equal(all.body.available_destinations.map((d: any) => d.id), rails.map((r: any) => r.id));
  const bank = all.body.available_destinations.find((d: any) => d.delivery_type === 'bank_account');
  const rail = rails.find((r: any) => r.id === bank.id);
  assert.equal(bank, { id: rail.id, delivery_type: rail.delivery_type, name: rail.name, icon_url: null, currency: rail.currency, countries: rail.countries,
    supports_instant_delivery: rail.supports_instant_delivery, supports_standard_delivery: rail.supports_standard_delivery, quote: null });
  const quoted = await list({ include_available: true, destination_id: bank.id, amount: '100' });
  assert.equal(quoted.body.available_destinations?.map((d: any) => d.id), [bank.id], JSON.stringify(quoted.body));
  const headQuote = (await app.request('GET', '/payouts/methods', { token: o.key, version: VERSION, query: { account_id: o.accountId, amount: '100' } })).body.data[0].quote;
  // The older quote's speeds carry estimated_arrival (#49), through the page's own downgrade.
  assert.equal(quoted.body.available_destinations[0].quote.standard, { ...headQuote.standard, estimated_arrival: null });
  // Quoted as the saved method on the same rail is, but a rail not yet saved has no arrival estimate to show.
  const { standard, instant, ...rest } = quoted.body.data[0].quote;
  assert.equal(quoted.body.available_destinations[0].quote, { ...rest, standard: { ...standard, estimated_arrival: null }, instant: { ...instant, estimated_arrival: null } });
  const unknown = await list({ include_available: true, destination_id: 'podst_nothing' });
  assert.equal([unknown.status, unknown.body.error.param], [404, 'destination_id']);
  for (const query of [{ include_available: true }, { destination_id: bank.id }]) {
    const head = await list(query, VERSION);
    assert.equal([head.status, head.body.error.param], [400, Object.keys(query)[0]], JSON.stringify(head.body));
  }
});

t('#40 a stablecoin payout requested before status v2 is a conversion request: cofr_ at older pins, either id reads it', async () => {
  const o = await payoutOwner(app, 100_000);
  const usdc = await saveMethod(app, o.key, { account_id: o.accountId }, '0x52908400098527886E0F7030069857D2E4169EE7', 'podst_usdc');
  const old = await app.request('POST', '/payouts', { token: o.key, version: '2026-08-14', body: { account_id: o.accountId, payout_method_id: usdc.id, amount: 50, speed: 'instant' } });
  assert.is(old.status, 201, JSON.stringify(old.body));
  assert.match(old.body.id, /^cofr_/);
  assert.match(old.body.payout_request_id, /^poreq_/);
  const again = await app.request('GET', `/payouts/${old.body.id}`, { token: o.key, version: '2026-08-14' });
  assert.equal([again.status, again.body.id], [200, old.body.id]);
  const head = await app.request('GET', `/payouts/${old.body.id}`, { token: o.key, version: VERSION });
  assert.match(head.body.id, /^wdrl_/);
  assert.is(head.body.conversion_request_id, old.body.id);
  const now = await app.request('POST', '/payouts', { token: o.key, version: VERSION, body: { account_id: o.accountId, payout_method_id: usdc.id, amount: '50.00', speed: 'instant' } });
  assert.equal([now.body.conversion_request_id, now.body.id.startsWith('wdrl_')], [null, true]);
  const bank = await app.request('POST', '/payouts', { token: o.key, version: '2026-08-14', body: { account_id: o.accountId, payout_method_id: o.methodId, amount: 5 } });
  assert.match(bank.body.id, /^wdrl_/, 'only stablecoin payouts were conversion requests');
});

t('GET /withdrawals/{id}: a payout in the legacy withdrawal shape, at every version; the list and create are gone', async () => {
  const o = await payoutOwner(app, 100_000);
  const p = (await app.request('POST', '/payouts', { token: o.key, version: VERSION, body: { account_id: o.accountId, payout_method_id: o.methodId, amount: '40.00' } })).body;
  await settle(app, p.id);
  for (const version of [VERSION, '2026-07-20']) {
    const w = await app.request('GET', `/withdrawals/${p.id}`, { token: o.key, version });
    assert.is(w.status, 200, JSON.stringify(w.body));
    assert.equal([w.body.id, w.body.amount, w.body.fee_amount, w.body.status, w.body.fee_type, w.body.ledger_account], [p.id, 40, 0, 'completed', 'inclusive', { id: o.ledger, company_id: o.accountId }]);
    assert.is(w.body.payout_token.id, o.methodId);
    assert.match(w.body.trace_code, /^TRC/);
  }
  const gone = await app.request('GET', '/withdrawals', { token: o.key, version: VERSION });
  assert.equal([gone.status, gone.body.error.type], [410, 'gone']);
  assert.is((await app.request('GET', '/withdrawals/wdrl_nothing', { token: o.key, version: VERSION })).status, 404);
});

t.run();
