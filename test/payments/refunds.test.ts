import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { CARDS, get, jobsOf, makeSeller, makeVariant, pay, settleRefunds, usd, VERSION, viewerKey } from './payment-fixtures.js';

const t = suite('refunds');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const refund = (key: string, id: string, body: Record<string, unknown> = {}) =>
  app.request('POST', `/payments/${id}/refund`, { token: key, version: VERSION, body });

t('a partial refund is pending, then partially refunds the payment and reverses the ledger', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 1000 });
  const { id } = await pay(app, s, { plan_id: v.id, country: 'FR' }); // 20% tax: total 1200
  const res = await refund(s.key, id, { partial_amount: 300 });
  assert.is(res.status, 200);
  assert.is(res.body.id, id);
  assert.is(res.body.status, 'succeeded', 'unchanged until the refund settles');
  const [row] = await app.db('refunds').where({ payment_id: id });
  assert.is(row.status, 'pending');
  assert.is((await jobsOf(app, 'refund_payment', row.id)).length, 1);
  await settleRefunds(app, id);
  const p = await get(app, s.key, id);
  assert.is(p.status, 'partially_refunded');
  assert.equal(p.refunded_amount, usd(300));
  assert.equal(p.tax_refunded_amount, usd(50));
  const r = await app.request('GET', `/refunds/${row.id}`, { token: s.key, version: VERSION });
  assert.is(r.status, 200);
  assert.equal(r.body, {
    id: row.id, payment_id: id, account_id: s.accountId, amount: usd(300), original_amount: usd(300), provider: 'sandbox',
    status: 'succeeded', failure_reason: null, created_at: r.body.created_at, updated_at: r.body.updated_at,
  });
  const postings = await app.db('ledger_postings').where({ entry_id: row.id });
  assert.is(postings.length, 2);
  assert.is(postings.reduce((n, x) => n + Number(x.amount), 0), 0);
  assert.is(Number(postings.find((x) => x.bucket === 'pending')!.amount), -300);
  // The rest refunds it fully.
  const rest = await refund(s.key, id);
  assert.is(rest.status, 200);
  await settleRefunds(app, id);
  const full = await get(app, s.key, id);
  assert.is(full.status, 'refunded');
  assert.equal(full.refunded_amount, usd(1200));
  assert.equal(full.tax_refunded_amount, usd(200));
});

t('refunding more than remains (counting pending refunds) is a 400 naming partial_amount', async () => {
  const s = await makeSeller(app.db);
  const { id } = await pay(app, s, { amount: 500, currency: 'usd' });
  assert.is((await refund(s.key, id, { partial_amount: 400 })).status, 200);
  const over = await refund(s.key, id, { partial_amount: 101 });
  assert.is(over.status, 400);
  assert.is(over.body.error.type, 'invalid_request');
  assert.is(over.body.error.param, 'partial_amount');
  assert.is((await refund(s.key, id, { partial_amount: 100 })).status, 200);
  const nothingLeft = await refund(s.key, id);
  assert.is(nothingLeft.status, 400);
  assert.is(nothingLeft.body.error.param, 'partial_amount');
  const zero = await refund(s.key, id, { partial_amount: 0 });
  assert.is(zero.status, 400);
  assert.is(zero.body.error.param, 'partial_amount');
});

t('a payment not collected cannot be refunded (invalid_state)', async () => {
  const s = await makeSeller(app.db);
  const pending = await pay(app, s, { amount: 500, currency: 'usd' }, { collect: false });
  const res = await refund(s.key, pending.id);
  assert.is(res.status, 400);
  assert.is(res.body.error.type, 'invalid_state');
  const failed = await pay(app, s, { amount: 500, currency: 'usd' }, { card: CARDS.declined });
  assert.is((await refund(s.key, failed.id)).body.error.type, 'invalid_state');
});

t('the refund-failing test card leaves the refund failed and the payment unchanged', async () => {
  const s = await makeSeller(app.db);
  const { id } = await pay(app, s, { amount: 500, currency: 'usd' }, { card: CARDS.refundFails });
  await refund(s.key, id);
  await settleRefunds(app, id);
  const [row] = await app.db('refunds').where({ payment_id: id });
  assert.is(row.status, 'failed');
  assert.is(row.failure_reason, 'refund_declined');
  const p = await get(app, s.key, id);
  assert.is(p.status, 'succeeded');
  assert.equal(p.refunded_amount, usd(0));
  assert.is((await app.db('ledger_postings').where({ entry_id: row.id })).length, 0);
  const again = await refund(s.key, id);
  assert.is(again.status, 200, 'a failed refund does not count against what remains');
});

t('GET /refunds filters by payment_id and account_id; company_id is a 400; others are 404', async () => {
  const s = await makeSeller(app.db);
  const a = await pay(app, s, { amount: 500, currency: 'usd' });
  const b = await pay(app, s, { amount: 500, currency: 'usd' });
  await refund(s.key, a.id, { partial_amount: 100 });
  await refund(s.key, b.id, { partial_amount: 200 });
  const all = await app.request('GET', '/refunds', { token: s.key, version: VERSION, query: { account_id: s.accountId } });
  assert.is(all.status, 200);
  assert.is(all.body.data.length, 2);
  const one = await app.request('GET', '/refunds', { token: s.key, version: VERSION, query: { payment_id: b.id } });
  assert.equal(one.body.data.map((r: any) => r.amount.amount), [200]);
  const company = await app.request('GET', '/refunds', { token: s.key, version: VERSION, query: { company_id: s.accountId } });
  assert.is(company.status, 400);
  assert.is(company.body.error.param, 'company_id');
  const stranger = await makeOwner(app.db);
  const theirs = await app.request('GET', '/refunds', { token: stranger.key, version: VERSION });
  assert.equal(theirs.body.data, []);
  const hidden = await app.request('GET', '/refunds', { token: stranger.key, version: VERSION, query: { account_id: s.accountId } });
  assert.is(hidden.status, 404);
  const [row] = await app.db('refunds').where({ payment_id: a.id });
  assert.is((await app.request('GET', `/refunds/${row.id}`, { token: stranger.key, version: VERSION })).status, 404);
  const viewer = await viewerKey(app.db, s.accountId);
  assert.is((await app.request('GET', `/refunds/${row.id}`, { token: viewer, version: VERSION })).status, 200);
  const buyerToken = await app.request('GET', '/refunds', { token: s.token, version: VERSION });
  assert.is(buyerToken.status, 200, 'the owner reads refunds with a user token');
  assert.is(buyerToken.body.data.length, 2);
});

t.run();
