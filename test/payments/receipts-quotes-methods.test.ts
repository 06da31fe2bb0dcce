import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { makeSavedMethod, makeSeller, makeVariant, pay, usd, VERSION, viewerKey } from './payment-fixtures.js';

const t = suite('receipts, payment quotes and saved payment methods');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

/** Receipt URLs name the public origin; tests fetch the same path from the test server. */
const download = (url: string) => fetch(`${app.server.url}${new URL(url).pathname}`);

t('generate_pdf returns a one-hour URL that downloads a real PDF without credentials', async () => {
  const s = await makeSeller(app.db);
  const { id } = await pay(app, s, { amount: 1234, currency: 'usd' });
  const res = await app.request('POST', `/payments/${id}/generate_pdf`, { token: s.key, version: VERSION });
  assert.is(res.status, 200);
  assert.match(res.body.url, /\/receipts\/[A-Za-z0-9]{32}\.pdf$/);
  const ttl = Date.parse(res.body.expires_at) - Date.now();
  assert.ok(ttl > 59 * 60_000 && ttl <= 60 * 60_000);
  const pdf = await download(res.body.url);
  assert.is(pdf.status, 200);
  assert.is(pdf.headers.get('content-type'), 'application/pdf');
  const bytes = Buffer.from(await pdf.arrayBuffer());
  const text = bytes.toString('latin1');
  assert.ok(text.startsWith('%PDF-1.4\n'));
  assert.ok(text.endsWith('%%EOF\n'));
  assert.ok(text.includes(`(Payment: ${id}) '`));
  assert.ok(text.includes("(Total: 12.34 USD) '"));
  // The xref table points at each object exactly.
  const xrefAt = Number(/startxref\n(\d+)/.exec(text)![1]);
  assert.ok(text.slice(xrefAt).startsWith('xref\n0 6\n'));
  const offsets = [...text.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
  offsets.forEach((o, i) => assert.ok(text.slice(o).startsWith(`${i + 1} 0 obj`), `object ${i + 1}`));
});

t('an expired or unknown receipt link is a 404 with the error envelope', async () => {
  const s = await makeSeller(app.db);
  const { id } = await pay(app, s, { amount: 100, currency: 'usd' });
  const res = await app.request('POST', `/payments/${id}/generate_pdf`, { token: s.key, version: VERSION });
  await app.db('payment_receipts').where({ payment_id: id }).update({ expires_at: new Date(Date.now() - 1000) }); // sql-state-write: a receipt link lives an hour of real time (Date.now() at issue, now() at download, never a sandbox clock)
  const expired = await download(res.body.url);
  assert.is(expired.status, 404);
  assert.is((await expired.json()).error.type, 'not_found');
  assert.is((await download('http://x/receipts/nope.pdf')).status, 404);
  const stranger = await makeOwner(app.db);
  const hidden = await app.request('POST', `/payments/${id}/generate_pdf`, { token: stranger.key, version: VERSION });
  assert.is(hidden.status, 404);
});

t('POST /payment_quotes prices each line with the buyer country tax', async () => {
  const s = await makeSeller(app.db);
  const a = await makeVariant(app, s.accountId, { price: 1000 });
  const b = await makeVariant(app, s.accountId, { price: 250 });
  const res = await app.request('POST', '/payment_quotes', {
    token: s.key, version: VERSION,
    body: { account_id: s.accountId, country: 'DE', lines: [{ plan_id: a.id }, { plan_id: b.id, quantity: 2 }] },
  });
  assert.is(res.status, 200);
  assert.is(res.body.currency, 'usd');
  assert.equal(res.body.lines[0], { plan_id: a.id, quantity: 1, tax_rate: 19, subtotal: usd(1000), tax_amount: usd(190), total: usd(1190) });
  assert.equal(res.body.lines[1].tax_amount, usd(95));
  assert.equal(res.body.total, usd(1000 + 190 + 500 + 95));
  const untaxed = await app.request('POST', '/payment_quotes', {
    token: s.key, version: VERSION, body: { account_id: s.accountId, country: 'US', lines: [{ plan_id: a.id }] },
  });
  assert.equal(untaxed.body.tax_amount, usd(0));
});

t('payment quote errors: foreign variant 404, mixed currencies and empty lines 400, scope 403', async () => {
  const s = await makeSeller(app.db);
  const other = await makeSeller(app.db);
  const mine = await makeVariant(app, s.accountId);
  const eur = await makeVariant(app, s.accountId, { currency: 'eur' });
  const foreign = await makeVariant(app, other.accountId);
  const quote = (key: string, lines: unknown[], country = 'DE') =>
    app.request('POST', '/payment_quotes', { token: key, version: VERSION, body: { account_id: s.accountId, country, lines } });
  const notMine = await quote(s.key, [{ plan_id: mine.id }, { plan_id: foreign.id }]);
  assert.is(notMine.status, 404);
  assert.is(notMine.body.error.param, 'lines[1].plan_id');
  const mixed = await quote(s.key, [{ plan_id: mine.id }, { plan_id: eur.id }]);
  assert.is(mixed.status, 400);
  assert.is(mixed.body.error.param, 'lines[1].plan_id');
  const empty = await quote(s.key, []);
  assert.is(empty.status, 400);
  assert.is(empty.body.error.param, 'lines');
  const country = await quote(s.key, [{ plan_id: mine.id }], 'germany');
  assert.is(country.status, 400);
  assert.is(country.body.error.param, 'country');
  const viewer = await viewerKey(app.db, s.accountId);
  assert.is((await quote(viewer, [{ plan_id: mine.id }])).status, 403);
});

t('GET /payment_methods lists saved methods, by account and by member', async () => {
  const s = await makeSeller(app.db);
  const one = await makeSavedMethod(app, s.accountId);
  const two = await makeSavedMethod(app, s.accountId);
  const all = await app.request('GET', '/payment_methods', { token: s.key, version: VERSION, query: { account_id: s.accountId } });
  assert.is(all.status, 200);
  assert.equal(all.body.data.map((m: any) => m.id), [two.methodId, one.methodId]);
  assert.equal(all.body.data[0], {
    id: two.methodId, account_id: s.accountId, member_id: two.memberId, user_id: two.buyer.id, type: 'card',
    card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 }, created_at: all.body.data[0].created_at,
  });
  const byMember = await app.request('GET', '/payment_methods', { token: s.key, version: VERSION, query: { member_id: one.memberId } });
  assert.equal(byMember.body.data.map((m: any) => m.id), [one.methodId]);
  const stranger = await makeOwner(app.db);
  assert.equal((await app.request('GET', '/payment_methods', { token: stranger.key, version: VERSION })).body.data, []);
  assert.is((await app.request('GET', '/payment_methods', { token: stranger.key, version: VERSION, query: { account_id: s.accountId } })).status, 404);
  const bad = await app.request('GET', '/payment_methods', { token: s.key, version: VERSION, query: { member_id: 'mem_x' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'member_id');
  const buyer = await app.request('GET', '/payment_methods', { token: one.buyer.token, version: VERSION });
  assert.is(buyer.status, 403);
});

t.run();
