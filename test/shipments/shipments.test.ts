// /shipments over HTTP: create, the payment's shipment_id, one per payment, carrier recognition and tracking URLs,
// retrieve and PATCH by either id, lists, 404/403, and the older shape before changelog entry 51 (2026-07-30).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey } from '../helpers/fixtures.js';
import { makeSeller, pay, VERSION } from '../payments/payment-fixtures.js';

const OLDER = '2026-07-20';
const t = suite('shipments');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const create = (token: string, body: Record<string, unknown>, version = VERSION) =>
  app.request('POST', '/shipments', { token, version, body });

async function paidSale() {
  const seller = await makeSeller(app.db);
  const payment = await pay(app, seller, { amount: 1500, currency: 'usd' });
  return { seller, payment };
}

t('creating a shipment recognises the carrier, builds its tracking URL and sets the payment\'s shipment_id', async () => {
  const { seller, payment } = await paidSale();
  const res = await create(seller.key, { account_id: seller.accountId, payment_id: payment.id, tracking_number: '1z999aa10123456784', order_id: 'ORD-1001' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const s = res.body;
  assert.match(s.id, /^ship_/);
  assert.equal([s.account_id, s.payment_id, s.order_id, s.tracking_number, s.carrier, s.tracking_url],
    [seller.accountId, payment.id, 'ORD-1001', '1Z999AA10123456784', 'ups', 'https://www.ups.com/track?tracknum=1Z999AA10123456784']);
  const p = await app.request('GET', `/payments/${payment.id}`, { token: seller.key, version: VERSION });
  assert.is(p.body.shipment_id, s.id);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [s.id]).select('type');
  assert.equal(events.map((e) => e.type), ['shipment.created']);
});

t('each carrier of the table: recognised numbers and URL templates; an explicit carrier wins', async () => {
  const cases: [string, string, string][] = [
    ['9400111899223856928499', 'usps', 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223856928499'],
    ['123456789012', 'fedex', 'https://www.fedex.com/fedextrack/?trknbr=123456789012'],
    ['1234567890', 'dhl_express', 'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=1234567890'],
    ['AB123456789GB', 'royal_mail', 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB'],
    ['AB123456789CA', 'canada_post', 'https://www.canadapost-postescanada.ca/track-reperez/en#/search?searchFor=AB123456789CA'],
    ['AB123456789AU', 'australia_post', 'https://auspost.com.au/mypost/track/details/AB123456789AU'],
    ['C12345678901234', 'ontrac', 'https://www.ontrac.com/tracking/?number=C12345678901234'],
    ['3SABCD12345678', 'post_nl', 'https://jouw.postnl.nl/track-and-trace/3SABCD12345678'],
  ];
  for (const [number, carrier, url] of cases) {
    const { seller, payment } = await paidSale();
    const res = await create(seller.key, { account_id: seller.accountId, payment_id: payment.id, tracking_number: number });
    assert.equal([res.status, res.body.carrier, res.body.tracking_url], [201, carrier, url], number);
  }
  const { seller, payment } = await paidSale();
  const dpd = await create(seller.key, { account_id: seller.accountId, payment_id: payment.id, tracking_number: '01234567890123', carrier: 'dpd' });
  assert.equal([dpd.status, dpd.body.carrier, dpd.body.tracking_url], [201, 'dpd', 'https://tracking.dpd.de/status/en_US/parcel/01234567890123']);
});

t('a number no carrier recognises is a 400 naming carrier; a malformed number a 400 naming tracking_number; nothing written', async () => {
  const { seller, payment } = await paidSale();
  const unknown = await create(seller.key, { account_id: seller.accountId, payment_id: payment.id, tracking_number: 'XYZ12' });
  assert.equal([unknown.status, unknown.body.error.type, unknown.body.error.param], [400, 'invalid_request', 'carrier']);
  const bad = await create(seller.key, { account_id: seller.accountId, payment_id: payment.id, tracking_number: '1Z 99' });
  assert.equal([bad.status, bad.body.error.param], [400, 'tracking_number']);
  const badCarrier = await create(seller.key, { account_id: seller.accountId, payment_id: payment.id, tracking_number: '1234567890', carrier: 'pigeon' });
  assert.equal([badCarrier.status, badCarrier.body.error.param], [400, 'carrier']);
  assert.is((await app.db('shipments').where({ payment_id: payment.id })).length, 0);
  assert.is((await app.db('payments').where({ id: payment.id }).first()).shipment_id, null);
});

t('a payment has one shipment: a second create is a 409 naming payment_id, also when concurrent', async () => {
  const { seller, payment } = await paidSale();
  const results = await Promise.all(['1234567890', '123456789012', '1Z999AA10123456784'].map((n) =>
    create(seller.key, { account_id: seller.accountId, payment_id: payment.id, tracking_number: n })));
  assert.equal(results.map((r) => r.status).sort(), [201, 409, 409]);
  for (const r of results.filter((x) => x.status === 409)) assert.equal([r.body.error.type, r.body.error.param], ['conflict', 'payment_id']);
  assert.is((await app.db('shipments').where({ payment_id: payment.id })).length, 1);
});

t('a payment that was not collected cannot be shipped (400 invalid_state naming payment_id)', async () => {
  const seller = await makeSeller(app.db);
  const processing = await pay(app, seller, { amount: 900, currency: 'usd' }, { collect: false });
  const declined = await pay(app, seller, { amount: 900, currency: 'usd' }, { card: '4000000000000002' });
  for (const id of [processing.id, declined.id]) {
    const res = await create(seller.key, { account_id: seller.accountId, payment_id: id, tracking_number: '1234567890' });
    assert.equal([res.status, res.body.error.type, res.body.error.param], [400, 'invalid_state', 'payment_id']);
  }
});

t('another account\'s payment is a 404 naming payment_id; another account is a 404; without the scope a 403', async () => {
  const { seller, payment } = await paidSale();
  const other = await makeSeller(app.db);
  const foreignPayment = await create(other.key, { account_id: other.accountId, payment_id: payment.id, tracking_number: '1234567890' });
  assert.equal([foreignPayment.status, foreignPayment.body.error.type, foreignPayment.body.error.param], [404, 'not_found', 'payment_id']);
  const foreignAccount = await create(other.key, { account_id: seller.accountId, payment_id: payment.id, tracking_number: '1234567890' });
  assert.is(foreignAccount.status, 404);
  const viewer = (await makeKey(app.db, { accountId: seller.accountId, role: 'viewer' })).secret;
  const noScope = await create(viewer, { account_id: seller.accountId, payment_id: payment.id, tracking_number: '1234567890' });
  assert.equal([noScope.status, noScope.body.error.type], [403, 'permission_denied']);
  assert.is((await app.db('shipments').where({ payment_id: payment.id })).length, 0);
});

t('retrieve and PATCH by the shipment id or the payment id; PATCH re-recognises the carrier; cross-account 404, no scope 403', async () => {
  const { seller, payment } = await paidSale();
  const s = (await create(seller.key, { account_id: seller.accountId, payment_id: payment.id, tracking_number: '1234567890' })).body;
  for (const id of [s.id, payment.id]) {
    const got = await app.request('GET', `/shipments/${id}`, { token: seller.key, version: VERSION });
    assert.equal([got.status, got.body.id, got.body.carrier], [200, s.id, 'dhl_express']);
  }
  const patched = await app.request('PATCH', `/shipments/${payment.id}`, { token: seller.key, version: VERSION, body: { tracking_number: '123456789012' } });
  assert.equal([patched.status, patched.body.id, patched.body.tracking_number, patched.body.carrier, patched.body.tracking_url],
    [200, s.id, '123456789012', 'fedex', 'https://www.fedex.com/fedextrack/?trknbr=123456789012']);
  const explicit = await app.request('PATCH', `/shipments/${s.id}`, { token: seller.key, version: VERSION, body: { tracking_number: '123456789012', carrier: 'dpd' } });
  assert.equal([explicit.status, explicit.body.carrier], [200, 'dpd']);
  const same = await app.request('PATCH', `/shipments/${s.id}`, { token: seller.key, version: VERSION, body: { tracking_number: '123456789012', carrier: 'dpd' } });
  assert.equal([same.status, same.body.updated_at], [200, explicit.body.updated_at]);
  const unrecognised = await app.request('PATCH', `/shipments/${s.id}`, { token: seller.key, version: VERSION, body: { tracking_number: 'QQQQ' } });
  assert.equal([unrecognised.status, unrecognised.body.error.param], [400, 'carrier']);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [s.id]).orderBy('created_at').select('type');
  assert.equal(events.map((e) => e.type), ['shipment.created', 'shipment.updated', 'shipment.updated']);

  const other = await makeSeller(app.db);
  for (const id of [s.id, payment.id]) {
    const hidden = await app.request('GET', `/shipments/${id}`, { token: other.key, version: VERSION });
    assert.equal([hidden.status, hidden.body.error.type], [404, 'not_found']);
    const hiddenPatch = await app.request('PATCH', `/shipments/${id}`, { token: other.key, version: VERSION, body: { tracking_number: '1234567890' } });
    assert.is(hiddenPatch.status, 404);
  }
  const viewer = (await makeKey(app.db, { accountId: seller.accountId, role: 'viewer' })).secret;
  const noRead = await app.request('GET', `/shipments/${s.id}`, { token: viewer, version: VERSION });
  assert.is(noRead.status, 403);
  const readOnly = await makeKey(app.db, { accountId: seller.accountId, statements: [{ effect: 'allow', actions: ['shipment:basic:read'] }] });
  assert.is((await app.request('GET', `/shipments/${s.id}`, { token: readOnly.secret, version: VERSION })).status, 200);
  const noUpdate = await app.request('PATCH', `/shipments/${s.id}`, { token: readOnly.secret, version: VERSION, body: { tracking_number: '1234567890' } });
  assert.equal([noUpdate.status, noUpdate.body.error.type], [403, 'permission_denied']);
  const unshipped = await pay(app, seller, { amount: 700, currency: 'usd' });
  assert.is((await app.request('GET', `/shipments/${unshipped.id}`, { token: seller.key, version: VERSION })).status, 404);
});

t('lists: newest first, by account, payment and buyer, never another account\'s', async () => {
  const seller = await makeSeller(app.db);
  const ids: string[] = [];
  const buyers: string[] = [];
  for (const n of ['1234567890', '123456789012', '1Z999AA10123456784']) {
    const p = await pay(app, seller, { amount: 1000, currency: 'usd' });
    buyers.push(p.buyerId);
    ids.push((await create(seller.key, { account_id: seller.accountId, payment_id: p.id, tracking_number: n })).body.id);
  }
  const other = await paidSale();
  await create(other.seller.key, { account_id: other.seller.accountId, payment_id: other.payment.id, tracking_number: '1234567890' });
  const all = await app.request('GET', '/shipments', { token: seller.key, version: VERSION, query: { account_id: seller.accountId, first: 2 } });
  assert.equal([all.status, all.body.data.map((s: any) => s.id), all.body.page_info.has_next_page], [200, [ids[2], ids[1]], true]);
  const rest = await app.request('GET', '/shipments', { token: seller.key, version: VERSION, query: { account_id: seller.accountId, after: all.body.page_info.end_cursor } });
  assert.equal(rest.body.data.map((s: any) => s.id), [ids[0]]);
  const noAccount = await app.request('GET', '/shipments', { token: seller.key, version: VERSION });
  assert.equal(noAccount.body.data.map((s: any) => s.id), [ids[2], ids[1], ids[0]]);
  const byBuyer = await app.request('GET', '/shipments', { token: seller.key, version: VERSION, query: { user_id: buyers[1] } });
  assert.equal(byBuyer.body.data.map((s: any) => s.id), [ids[1]]);
  const byPayment = await app.request('GET', '/shipments', { token: seller.key, version: VERSION, query: { payment_id: other.payment.id } });
  assert.equal(byPayment.body.data, []);
  const foreign = await app.request('GET', '/shipments', { token: seller.key, version: VERSION, query: { account_id: other.seller.accountId } });
  assert.is(foreign.status, 404);
  const viewer = (await makeKey(app.db, { accountId: seller.accountId, role: 'viewer' })).secret;
  assert.is((await app.request('GET', '/shipments', { token: viewer, version: VERSION, query: { account_id: seller.accountId } })).status, 403);
});

t(`at ${OLDER} (before entry 51): company_id and tracking_code, the payment embedded, carrier-scan fields, no PATCH`, async () => {
  const { seller, payment } = await paidSale();
  const res = await create(seller.key, { company_id: seller.accountId, payment_id: payment.id, tracking_code: '1Z999AA10123456784' }, OLDER);
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body, {
    id: res.body.id, carrier: 'ups', created_at: res.body.created_at, delivery_estimate: null, payment: { id: payment.id },
    service: null, status: 'unknown', substatus: null, tracking_code: '1Z999AA10123456784', updated_at: res.body.updated_at,
  });
  const sentNew = await create(seller.key, { account_id: seller.accountId, payment_id: payment.id, tracking_code: '1234567890' }, OLDER);
  assert.is(sentNew.status, 400);
  const withCarrier = await create(seller.key, { company_id: seller.accountId, payment_id: payment.id, tracking_code: '1234567890', carrier: 'dpd' }, OLDER);
  assert.equal([withCarrier.status, withCarrier.body.error.param], [400, 'carrier']);
  const got = await app.request('GET', `/shipments/${payment.id}`, { token: seller.key, version: OLDER });
  assert.equal([got.status, got.body.tracking_code, got.body.payment, got.body.tracking_url], [200, '1Z999AA10123456784', { id: payment.id }, undefined]);
  const list = await app.request('GET', '/shipments', { token: seller.key, version: OLDER, query: { company_id: seller.accountId } });
  assert.equal([list.status, list.body.data.map((s: any) => s.tracking_code)], [200, ['1Z999AA10123456784']]);
  const patch = await app.request('PATCH', `/shipments/${res.body.id}`, { token: seller.key, version: OLDER, body: { tracking_number: '1234567890' } });
  assert.is(patch.status, 404);
  const p = await app.request('GET', `/payments/${payment.id}`, { token: seller.key, version: OLDER });
  assert.is(p.body.shipment_id, res.body.id);
  const head = await app.request('GET', `/shipments/${res.body.id}`, { token: seller.key, version: VERSION });
  assert.equal([head.body.tracking_number, head.body.payment_id], ['1Z999AA10123456784', payment.id]);
});

t.run();
