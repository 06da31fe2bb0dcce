// Implemented changelog entries on payments (4, 7, 33), at the version before each and the version after.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { CARDS, makeSeller, makeVariant, makeSavedMethod, pay, settleRefunds } from '../payments/payment-fixtures.js';
import { enableChallenges } from '../helpers/operator.js';

const t = suite('versioning: payment changes');
let app: TestApp;
let seller: Awaited<ReturnType<typeof makeSeller>>;
t.before(async () => {
  app = await startTestApp();
  seller = await makeSeller(app.db);
});
t.after(async () => { await app.close(); });

t('#33 before native payments: company_id, decimal amounts, receipt statuses, creation 200', async () => {
  const variant = await makeVariant(app, seller.accountId, { price: 1043 });
  const saved = await makeSavedMethod(app, seller.accountId);
  for (const version of ['2026-08-14', '2026-07-20', '2025-01-01']) {
    const created = await app.request('POST', '/payments', {
      token: seller.key, version,
      body: { company_id: seller.accountId, member_id: saved.memberId, payment_method_id: saved.methodId, plan_id: variant.id },
    });
    assert.is(created.status, 200, `${version} ${JSON.stringify(created.body)}`);
    assert.is(created.body.company_id, seller.accountId);
    assert.not.ok('account_id' in created.body);
    assert.is(created.body.total, 10.43);
    assert.is(created.body.subtotal, 10.43);
    assert.is(created.body.status, 'pending');
    assert.is(created.body.substatus, 'processing');
    assert.ok('last_payment_attempt' in created.body && !('last_payment_attempt_at' in created.body));
  }
  // The head shape of the same request: account_id, money objects, 201.
  const head = await app.request('POST', '/payments', {
    token: seller.key, version: '2026-08-21',
    body: { account_id: seller.accountId, member_id: saved.memberId, payment_method_id: saved.methodId, plan_id: variant.id },
  });
  assert.is(head.status, 201);
  assert.equal(head.body.total, { amount: 1043, currency: 'usd', decimals: 2, display_decimals: 2 });
  assert.is(head.body.status, 'processing');
  // account_id is the newer name: refused at older pins, like company_id is at the newer.
  const wrongName = await app.request('POST', '/payments', {
    token: seller.key, version: '2026-07-20',
    body: { account_id: seller.accountId, member_id: saved.memberId, payment_method_id: saved.methodId, plan_id: variant.id },
  });
  assert.is(wrongName.status, 400);
});

t('#33 errors the server raises about a renamed input name it as the caller sent it', async () => {
  const other = await makeSeller(app.db);
  const saved = await makeSavedMethod(app, seller.accountId);
  const body = { member_id: saved.memberId, payment_method_id: saved.methodId, amount: 1, currency: 'usd' };
  const old = await app.request('POST', '/payments', { token: seller.key, version: '2026-07-20', body: { company_id: other.accountId, ...body } });
  assert.is(old.status, 404, JSON.stringify(old.body));
  assert.is(old.body.error.param, 'company_id');
  const head = await app.request('POST', '/payments', { token: seller.key, version: '2026-09-06', body: { account_id: other.accountId, ...body, amount: 100 } });
  assert.is(head.status, 404);
  assert.is(head.body.error.param, 'account_id');
});

t('#33 a free-form amount is a decimal of its currency before 2026-08-21, converted exactly', async () => {
  const saved = await makeSavedMethod(app, seller.accountId);
  const charge = (version: string, amount: number, currency: string) => app.request('POST', '/payments', {
    token: seller.key, version, body: { company_id: seller.accountId, member_id: saved.memberId, payment_method_id: saved.methodId, amount, currency },
  });
  const cents = await charge('2026-07-20', 0.29, 'usd');
  assert.is(cents.status, 200, JSON.stringify(cents.body));
  assert.is(cents.body.total, 0.29);
  assert.is(Number((await app.db('payments').where({ id: cents.body.id }).first('total')).total), 29);
  const yen = await charge('2026-07-20', 1500, 'jpy');
  assert.is(yen.status, 200, JSON.stringify(yen.body));
  assert.is(Number((await app.db('payments').where({ id: yen.body.id }).first('total')).total), 1500);
  const tooPrecise = await charge('2026-07-20', 10.431, 'usd');
  assert.is(tooPrecise.status, 400);
  assert.is(tooPrecise.body.error.param, 'amount');
  assert.is((await charge('2026-07-20', 12.5, 'jpy')).body.error.param, 'amount');
});

t('#33 plural list filters before 2026-08-21 really filter, with receipt statuses; the latest refuses them', async () => {
  const a = await makeVariant(app, seller.accountId, { price: 500 });
  const b = await makeVariant(app, seller.accountId, { price: 700 });
  const paid = await pay(app, seller, { plan_id: a.id });
  const failed = await pay(app, seller, { plan_id: b.id }, { card: CARDS.declined });
  const list = (version: string, query: Record<string, any>) =>
    app.request('GET', '/payments', { token: seller.key, version, query: { company_id: seller.accountId, first: 100, ...query } });
  const ids = (res: any) => res.body.data.map((p: any) => p.id);
  const byPaid = await list('2026-07-20', { statuses: ['paid'] });
  assert.is(byPaid.status, 200, JSON.stringify(byPaid.body));
  assert.ok(ids(byPaid).includes(paid.id));
  assert.not.ok(ids(byPaid).includes(failed.id));
  assert.ok(byPaid.body.data.every((p: any) => p.status === 'paid'));
  const byOpen = await list('2026-07-20', { statuses: ['open', 'void'] });
  assert.ok(ids(byOpen).includes(failed.id));
  assert.not.ok(ids(byOpen).includes(paid.id));
  assert.is((await list('2025-01-01', { statuses: ['draft'] })).body.data.length, 0);
  const byPlans = await list('2026-07-20', { plan_ids: [b.id] });
  assert.equal(ids(byPlans), [failed.id]);
  const byProducts = await list('2026-07-20', { product_ids: [a.productId, b.productId] });
  assert.equal(new Set(ids(byProducts)), new Set([paid.id, failed.id]));
  assert.equal(ids(await list('2026-07-20', { plan_ids: [a.id], substatuses: ['succeeded'] })), [paid.id]);
  assert.equal(ids(await list('2026-07-20', { plan_ids: [a.id], substatuses: ['failed'] })), []);
  assert.ok(ids(await list('2026-07-20', { billing_reasons: ['subscription'] })).includes(paid.id));
  assert.equal(ids(await list('2026-07-20', { plan_ids: [a.id], billing_reasons: ['manual'] })), []);
  assert.equal(ids(await list('2026-07-20', { plan_ids: [a.id], currencies: ['eur'] })), []);
  assert.equal(ids(await list('2026-07-20', { plan_ids: [a.id], currencies: ['usd'], include_free: false })), [paid.id]);
  const later = new Date(Date.now() + 60_000).toISOString();
  assert.equal(ids(await list('2026-07-20', { plan_ids: [a.id], updated_after: later })), []);
  assert.equal(ids(await list('2026-07-20', { plan_ids: [a.id], updated_before: later })), [paid.id]);
  // Bad older input is the same clear 400 as at the latest, naming the parameter.
  const bogus = await list('2026-07-20', { statuses: ['succeeded'] });
  assert.is(bogus.status, 400);
  assert.match(bogus.body.error.param, /^statuses/);
  const singular = await list('2026-07-20', { status: 'paid' });
  assert.is(singular.status, 400);
  assert.is(singular.body.error.param, 'status');
  // The latest: singular filters only; the plural and proxy-only ones are unknown parameters.
  const head = (query: Record<string, any>) => app.request('GET', '/payments', { token: seller.key, version: '2026-09-06', query: { account_id: seller.accountId, ...query } });
  for (const [param, value] of [['statuses', ['succeeded']], ['plan_ids', [a.id]], ['include_free', 'true'], ['updated_after', later], ['substatuses', ['failed']]] as const) {
    const res = await head({ [param]: value });
    assert.is(res.status, 400, param);
    assert.is(res.body.error.param, param);
  }
  assert.equal(ids(await head({ status: 'failed', plan_id: b.id })), [failed.id]);
});

t('#33 refunds take a decimal partial_amount before 2026-08-21 and show decimal amounts', async () => {
  const variant = await makeVariant(app, seller.accountId, { price: 2000 });
  const { id } = await pay(app, seller, { plan_id: variant.id });
  const refund = (version: string, body: unknown) => app.request('POST', `/payments/${id}/refund`, { token: seller.key, version, body });
  const tooPrecise = await refund('2026-07-20', { partial_amount: 1.005 });
  assert.is(tooPrecise.status, 400);
  assert.is(tooPrecise.body.error.param, 'partial_amount');
  const first = await refund('2026-07-20', { partial_amount: 1.15 });
  assert.is(first.status, 200, JSON.stringify(first.body));
  const stored = await app.db('refunds').where({ payment_id: id }).select('amount');
  assert.equal(stored.map((r) => Number(r.amount)), [115]);
  // The latest takes minor units.
  assert.is((await refund('2026-09-06', { partial_amount: 1.15 })).status, 400);
  assert.is((await refund('2026-09-06', { partial_amount: 100 })).status, 200);
  await settleRefunds(app, id);
  const old = await app.request('GET', `/payments/${id}`, { token: seller.key, version: '2026-07-20' });
  assert.is(old.body.refunded_amount, 2.15);
  assert.is(old.body.status, 'paid');
  assert.is(old.body.substatus, 'partially_refunded');
  const refunds = await app.request('GET', '/refunds', { token: seller.key, version: '2026-07-20', query: { company_id: seller.accountId, payment_id: id } });
  assert.is(refunds.status, 200, JSON.stringify(refunds.body));
  assert.equal(refunds.body.data.map((r: any) => r.amount).sort(), [1, 1.15]);
  assert.ok(refunds.body.data.every((r: any) => r.company_id === seller.accountId));
  const fees = await app.request('GET', `/payments/${id}/fees`, { token: seller.key, version: '2026-07-20' });
  assert.ok(fees.body.data.length > 0 && fees.body.data.every((f: any) => typeof f.amount === 'number'));
  // Operations that came with native payments do not exist before them.
  assert.is((await app.request('POST', `/payments/${id}/generate_pdf`, { token: seller.key, version: '2026-07-20' })).status, 404);
  assert.is((await app.request('POST', `/payments/${id}/capture`, { token: seller.key, version: '2026-08-14' })).status, 404);
});

t('#4 payments carry pdf_url (null until a receipt is generated) before 2026-09-06, and not from it', async () => {
  const variant = await makeVariant(app, seller.accountId, { price: 700 });
  const { id } = await pay(app, seller, { plan_id: variant.id });
  const at = (version: string) => app.request('GET', `/payments/${id}`, { token: seller.key, version });
  assert.not.ok('pdf_url' in (await at('2026-09-06')).body);
  const old = (await at('2026-09-02')).body;
  assert.ok('pdf_url' in old);
  assert.is(old.pdf_url, null);
  const listed = await app.request('GET', '/payments', { token: seller.key, version: '2026-09-02', query: { account_id: seller.accountId } });
  assert.ok(listed.body.data.every((p: any) => p.pdf_url === null));

  // Once generate_pdf made a receipt, older pins show its link (the newest), which downloads the PDF. The payment
  // keeps its newest receipt, but a receipt is not a change of the payment: updated_at stays.
  const updatedAt = (await at('2026-09-06')).body.updated_at;
  const first = await app.request('POST', `/payments/${id}/generate_pdf`, { token: seller.key, version: '2026-09-06' });
  assert.is((await at('2026-09-02')).body.pdf_url, first.body.url);
  const made = await app.request('POST', `/payments/${id}/generate_pdf`, { token: seller.key, version: '2026-09-06' });
  assert.is.not(made.body.url, first.body.url);
  for (const version of ['2026-09-02', '2026-07-20', '2025-01-01']) assert.is((await at(version)).body.pdf_url, made.body.url, version);
  assert.not.ok('pdf_url' in (await at('2026-09-06')).body);
  assert.is((await at('2026-09-06')).body.updated_at, updatedAt);
  const again = await app.request('GET', '/payments', { token: seller.key, version: '2026-07-20', query: { company_id: seller.accountId } });
  assert.is(again.body.data.find((p: any) => p.id === id).pdf_url, made.body.url);
  const pdf = await fetch(`${app.server.url}${new URL(made.body.url).pathname}`);
  assert.is(pdf.status, 200);
  assert.ok(Buffer.from(await pdf.arrayBuffer()).toString('latin1').includes(`(Payment: ${id}) '`));
});

t('#7 a saved-method charge with return_url treats the buyer as present from 2026-09-02 only', async () => {
  // A card that needs a 3-D Secure step: with the buyer present it waits for them; without, it cannot authenticate.
  await enableChallenges(app.db, seller.accountId);
  const variant = await makeVariant(app, seller.accountId, { price: 500, threeDSecurePolicy: 'mandate_challenge' });
  const charge = async (version: string) => {
    const saved = await makeSavedMethod(app, seller.accountId, 'requires_3ds');
    const res = await app.request('POST', '/payments', {
      token: seller.key, version,
      body: { account_id: seller.accountId, member_id: saved.memberId, payment_method_id: saved.methodId, plan_id: variant.id,
        return_url: 'https://shop.example/return' },
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };
  const present = await charge('2026-09-02');
  assert.is(present.status, 'requires_action');
  assert.ok(present.next_action);
  const absent = await charge('2026-08-28');
  assert.is.not(absent.status, 'requires_action');
});

t.run();
