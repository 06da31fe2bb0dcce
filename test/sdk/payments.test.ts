// Payments, fees and refunds through the official client: at its default pin 2026-07-20 (company_id, decimal
// money, receipt statuses, plural filters, creation 200) and at the latest.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type Whop from '@whop/sdk';
import { BadRequestError, NotFoundError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { CARDS, collect, makeSavedMethod, makeSeller, makeVariant, pay, settleRefunds } from '../payments/payment-fixtures.js';
import { LATEST, PIN, collectAll, countingFetch, loose, raw, rejects, sdk } from './sdk-helpers.js';

const t = suite('sdk: payments');
let app: TestApp;
let seller: Awaited<ReturnType<typeof makeSeller>>;
let pinned: Whop;
let latest: Whop;
t.before(async () => {
  app = await startTestApp();
  seller = await makeSeller(app.db);
  pinned = sdk(app, seller.key);
  latest = sdk(app, seller.key, { version: LATEST });
});
t.after(async () => { await app.close(); });

t('payments.create charges a saved method with company_id at 2026-07-20: 200, decimal money, receipt status', async () => {
  const variant = await makeVariant(app, seller.accountId, { price: 1043 });
  const saved = await makeSavedMethod(app, seller.accountId);
  const { data: created, response } = await pinned.payments.create({
    company_id: seller.accountId, member_id: saved.memberId, payment_method_id: saved.methodId, plan_id: variant.id,
  }).withResponse();
  assert.is(response.status, 200);
  assert.match(created.id, /^pay_/);
  assert.is(raw(created).company_id, seller.accountId);
  assert.not.ok('account_id' in raw(created));
  assert.is(created.total, 10.43);
  assert.is(created.subtotal, 10.43);
  assert.is(created.status, 'pending');
  assert.is(created.substatus, 'processing');
  assert.is(Number((await app.db('payments').where({ id: created.id }).first('total')).total), 1043);
  await collect(app, created.id);
  const got = await pinned.payments.retrieve(created.id);
  assert.is(got.status, 'paid');
  assert.is(got.substatus, 'succeeded');
  assert.is(got.total, 10.43);
  assert.is(raw(got).company_id, seller.accountId);
  // The same payment at the latest: money objects and native statuses.
  const head = await latest.payments.retrieve(created.id);
  assert.equal(raw(head).total, { amount: 1043, currency: 'usd', decimals: 2, display_decimals: 2 });
  assert.is(raw(head).status, 'succeeded');
  await rejects(pinned.payments.retrieve('pay_doesnotexist000000'), NotFoundError, 404);
});

t('payments.list at 2026-07-20: statuses, plan_ids, billing_reasons and currencies really filter', async () => {
  const a = await makeVariant(app, seller.accountId, { price: 500 });
  const b = await makeVariant(app, seller.accountId, { price: 700 });
  const paid = await pay(app, seller, { plan_id: a.id });
  const failed = await pay(app, seller, { plan_id: b.id }, { card: CARDS.declined });
  const counting = countingFetch();
  const client = sdk(app, seller.key, { fetch: counting.fetch });
  const ids = async (query: Record<string, unknown>) =>
    (await client.payments.list({ company_id: seller.accountId, first: 100, ...query })).data.map((p) => p.id);
  const byPaid = await client.payments.list({ company_id: seller.accountId, statuses: ['paid'], first: 100 });
  assert.ok(byPaid.data.some((p) => p.id === paid.id));
  assert.not.ok(byPaid.data.some((p) => p.id === failed.id));
  assert.ok(byPaid.data.every((p) => p.status === 'paid'));
  assert.match(counting.calls[0].url, /statuses%5B%5D=paid/);
  const byOpen = await ids({ statuses: ['open', 'void'] });
  assert.ok(byOpen.includes(failed.id));
  assert.not.ok(byOpen.includes(paid.id));
  assert.equal(await ids({ plan_ids: [b.id] }), [failed.id]);
  assert.equal(new Set(await ids({ plan_ids: [a.id, b.id] })), new Set([paid.id, failed.id]));
  assert.equal(await ids({ plan_ids: [a.id], statuses: ['paid'] }), [paid.id]);
  assert.equal(await ids({ plan_ids: [a.id], statuses: ['open'] }), []);
  assert.ok((await ids({ billing_reasons: ['subscription'] })).includes(paid.id));
  assert.equal(await ids({ plan_ids: [a.id], billing_reasons: ['manual'] }), []);
  assert.equal(await ids({ plan_ids: [a.id], currencies: ['usd'] }), [paid.id]);
  assert.equal(await ids({ plan_ids: [a.id], currencies: ['eur'] }), []);
  // A status the pin does not know is a clear 400 naming the filter.
  const bogus = await rejects(client.payments.list(loose({ company_id: seller.accountId, statuses: ['succeeded'] })), BadRequestError, 400);
  assert.match(raw(bogus.error).error.param, /^statuses/);
});

t('payments.list at the latest refuses the plural filters the client sends, naming each', async () => {
  for (const [param, value] of [['statuses', ['succeeded']], ['plan_ids', ['plan_x']], ['billing_reasons', ['one_time']], ['currencies', ['usd']]] as const) {
    const err = await rejects(latest.payments.list(loose({ account_id: seller.accountId, [param]: value })), BadRequestError, 400);
    assert.is(raw(err.error).error.param, param);
    assert.is(raw(err.error).error.type, 'invalid_request');
  }
  // company_id is the older name at the latest.
  const old = await rejects(latest.payments.list({ company_id: seller.accountId }), BadRequestError, 400);
  assert.is(raw(old.error).error.param, 'company_id');
});

t('for await over payments.list({ first: 2 }) visits every payment exactly once and stops', async () => {
  const variant = await makeVariant(app, seller.accountId, { price: 300 });
  const made: string[] = [];
  for (let i = 0; i < 5; i++) made.push((await pay(app, seller, { plan_id: variant.id })).id);
  const counting = countingFetch();
  const client = sdk(app, seller.key, { fetch: counting.fetch });
  const seen = await collectAll(client.payments.list({ company_id: seller.accountId, plan_ids: [variant.id], first: 2 }));
  const ids = seen.map((p) => p.id);
  assert.is(ids.length, 5);
  assert.equal(new Set(ids), new Set(made));
  // 3 pages of 2, 2 and 1; at most one more request (a cursor past the end answering an empty page).
  assert.ok(counting.calls.length >= 3 && counting.calls.length <= 4, `${counting.calls.length} requests`);
  assert.ok(counting.calls.slice(1).every((c) => /[?&]after=/.test(c.url) && /first=2/.test(c.url) && /plan_ids%5B%5D=/.test(c.url)));
  // The same at the latest, with its singular filter.
  const head = await collectAll(latest.payments.list(loose({ account_id: seller.accountId, plan_id: variant.id, first: 2 })));
  assert.equal(new Set(head.map((p) => p.id)), new Set(made));
  assert.is(head.length, 5);
});

t('payments.refund takes a decimal partial_amount at 2026-07-20, stored in minor units; refunds list and retrieve', async () => {
  const variant = await makeVariant(app, seller.accountId, { price: 2000 });
  const { id } = await pay(app, seller, { plan_id: variant.id });
  const refunded = await pinned.payments.refund(id, { partial_amount: 1.25 });
  assert.is(refunded.id, id);
  const stored = await app.db('refunds').where({ payment_id: id }).select('id', 'amount');
  assert.equal(stored.map((r) => Number(r.amount)), [125]);
  const tooPrecise = await rejects(pinned.payments.refund(id, { partial_amount: 1.005 }), BadRequestError, 400);
  assert.is(raw(tooPrecise.error).error.param, 'partial_amount');
  await settleRefunds(app, id);
  const after = await pinned.payments.retrieve(id);
  assert.is(after.refunded_amount, 1.25);
  assert.is(after.status, 'paid');
  assert.is(after.substatus, 'partially_refunded');

  const refunds = await pinned.refunds.list({ company_id: seller.accountId, payment_id: id });
  assert.equal(refunds.data.map((r) => r.id), [stored[0].id]);
  assert.is(refunds.data[0].amount, 1.25);
  assert.is(raw(refunds.data[0]).company_id, seller.accountId);
  const one = await pinned.refunds.retrieve(stored[0].id);
  assert.is(one.id, stored[0].id);
  assert.is(one.amount, 1.25);
  assert.is(raw(one).status, 'succeeded');
  const headRefund = await latest.refunds.retrieve(stored[0].id);
  assert.equal(raw(headRefund).amount, { amount: 125, currency: 'usd', decimals: 2, display_decimals: 2 });
  await rejects(pinned.refunds.retrieve('rfnd_doesnotexist0000'), NotFoundError, 404);
});

t('payments.listFees lists the fees of a collected payment as decimal amounts at 2026-07-20', async () => {
  const variant = await makeVariant(app, seller.accountId, { price: 1000 });
  const { id } = await pay(app, seller, { plan_id: variant.id });
  const fees = await pinned.payments.listFees(id);
  assert.ok(fees.data.length > 0);
  assert.ok(fees.data.every((f) => typeof f.amount === 'number'), JSON.stringify(fees.data));
  assert.equal(fees.data.map((f) => f.amount).sort(), [0.1, 0.59]); // 2.9% + 30 and 1% of 10.00
  const head = await latest.payments.listFees(id);
  assert.is(head.data.length, fees.data.length);
  const minor = head.data.map((f) => raw(f).amount.amount as number).sort((x, y) => x - y);
  assert.equal(fees.data.map((f) => Math.round(f.amount * 100)).sort((x, y) => x - y), minor);
});

t('refunds and fees at 2026-07-20 carry the currency the client declares (RefundListResponse.currency, PaymentListFeesResponse.currency)', async () => {
  const variant = await makeVariant(app, seller.accountId, { price: 1500 });
  const { id } = await pay(app, seller, { plan_id: variant.id });
  await pinned.payments.refund(id, { partial_amount: 2 });
  const refund = (await pinned.refunds.list({ company_id: seller.accountId, payment_id: id })).data[0];
  const fees = (await pinned.payments.listFees(id)).data;
  assert.is(refund.currency, 'usd', `refund at 2026-07-20: ${JSON.stringify(refund)}`);
  assert.is((await pinned.refunds.retrieve(refund.id)).currency, 'usd');
  assert.ok(fees.length > 0 && fees.every((f) => f.currency === 'usd'), `fees at 2026-07-20: ${JSON.stringify(fees)}`);
});

t('payments.void releases an authorized hold (capture false at the head, then collected)', async () => {
  const variant = await makeVariant(app, seller.accountId, { price: 900 });
  const { id } = await pay(app, seller, { plan_id: variant.id, capture: false });
  assert.is((await latest.payments.retrieve(id)).status as string, 'authorized');
  assert.is((await pinned.payments.retrieve(id)).status, 'pending');
  const voided = await pinned.payments.void(id);
  assert.is(voided.id, id);
  assert.is(voided.status, 'void');
  assert.is(raw(await latest.payments.retrieve(id)).status, 'canceled');
  // A collected payment cannot be voided: a clear 400 naming the state field.
  const settled = await pay(app, seller, { plan_id: variant.id });
  const err = await rejects(pinned.payments.void(settled.id), BadRequestError, 400);
  assert.is(raw(err.error).error.type, 'invalid_state');
  assert.is(raw(err.error).error.param, 'status');
});

t('the pinned and latest clients differ only by the header they send', async () => {
  const counting = countingFetch();
  await sdk(app, seller.key, { version: LATEST, fetch: counting.fetch }).payments.list({ ...{ account_id: seller.accountId }, first: 1 });
  await sdk(app, seller.key, { fetch: counting.fetch }).payments.list({ company_id: seller.accountId, first: 1 });
  assert.equal(counting.calls.map((c) => c.headers.get('api-version-date')), [LATEST, PIN]);
});

t.run();
