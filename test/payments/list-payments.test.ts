import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { CARDS, makeSeller, makeVariant, pay, VERSION, viewerKey } from './payment-fixtures.js';
import { resources } from '../../generated/resources.js';

const t = suite('GET /payments and GET /payments/{id}');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const list = (key: string, query: Record<string, any> = {}) => app.request('GET', '/payments', { token: key, version: VERSION, query });
const ids = (res: { body: any }) => res.body.data.map((p: any) => p.id);

t('lists newest first with cursor pages; settlement_time_at is null on list rows', async () => {
  const s = await makeSeller(app.db);
  const made = [];
  for (let i = 0; i < 3; i++) made.push((await pay(app, s, { amount: 100 + i, currency: 'usd' })).id);
  const page1 = await list(s.key, { account_id: s.accountId, first: 2 });
  assert.is(page1.status, 200);
  assert.equal(ids(page1), [made[2], made[1]]);
  assert.is(page1.body.page_info.has_next_page, true);
  assert.is(page1.body.data[0].settlement_time_at, null);
  const page2 = await list(s.key, { account_id: s.accountId, first: 2, after: page1.body.page_info.end_cursor });
  assert.equal(ids(page2), [made[0]]);
  assert.is(page2.body.page_info.has_next_page, false);
  const single = await app.request('GET', `/payments/${made[0]}`, { token: s.key, version: VERSION });
  assert.ok(single.body.settlement_time_at, 'the single read shows the settlement time');
});

t('GET /payments/{id} reads only the columns its view needs, and answers what the whole row renders', async () => {
  const s = await makeSeller(app.db);
  const alice = await makeUser(app.db, 'Alice Viewcolumns');
  const v = await makeVariant(app, s.accountId, { price: 700 });
  for (const made of [await pay(app, s, { plan_id: v.id }, { buyerId: alice.id }), await pay(app, s, { amount: 200, currency: 'usd' }, { card: CARDS.declined })]) {
    const single = await app.request('GET', `/payments/${made.id}`, { token: s.key, version: VERSION });
    assert.is(single.status, 200);
    const [whole] = (await app.db.raw(resources.Payment.byId.replace('$1', '?'), [made.id])).rows;
    assert.equal(single.body, JSON.parse(JSON.stringify(resources.Payment.view(whole))), 'the narrow read renders as the whole row does');
  }
  const narrow = resources.Payment.viewById!;
  assert.ok(narrow && !narrow.includes('"payments".*') && !narrow.includes('metadata'), narrow);
  // The list reads the same columns (selectRows with 'view'), and its rows render as the whole rows do.
  const listed = await list(s.key, { account_id: s.accountId });
  assert.is(listed.body.data.length, 2);
  for (const item of listed.body.data) {
    const [whole] = (await app.db.raw(resources.Payment.byId.replace('$1', '?'), [item.id])).rows;
    assert.equal(item, JSON.parse(JSON.stringify({ ...resources.Payment.view(whole), settlement_time_at: null })), 'a list row renders as its whole row does');
  }
  assert.ok(resources.Payment.viewSelect && !resources.Payment.viewSelect.includes('metadata'), resources.Payment.viewSelect);
});

t('every singular filter narrows the list', async () => {
  const s = await makeSeller(app.db);
  const v = await makeVariant(app, s.accountId, { price: 500 });
  const eur = await makeVariant(app, s.accountId, { price: 500, currency: 'eur' });
  const alice = await makeUser(app.db, 'Alice Zephyr');
  const bought = await pay(app, s, { plan_id: v.id }, { buyerId: alice.id });
  const declined = await pay(app, s, { amount: 200, currency: 'usd' }, { card: CARDS.declined });
  const inEur = await pay(app, s, { plan_id: eur.id });
  const renewal = await pay(app, s, { plan_id: v.id }, { buyerId: alice.id });
  const update = await pay(app, s, { amount: 300, currency: 'usd' });
  await app.db('payments').where({ id: update.id }).update({ billing_reason: 'subscription_update' }); // sql-state-write: no product path records subscription_update today (the filter must still match such renewals)
  const boughtRow = await app.db('payments').where({ id: bought.id }).first();
  const q = (query: Record<string, any>) => list(s.key, { account_id: s.accountId, ...query });
  assert.equal(ids(await q({ status: 'failed' })), [declined.id]);
  assert.equal(ids(await q({ currency: 'eur' })), [inEur.id]);
  assert.equal(ids(await q({ plan_id: v.id })), [renewal.id, bought.id]);
  assert.equal(ids(await q({ product_id: eur.productId })), [inEur.id]);
  assert.equal(ids(await q({ membership_id: boughtRow.membership_id })), [renewal.id, bought.id]);
  assert.equal(ids(await q({ member_id: boughtRow.member_id })), [renewal.id, bought.id]);
  assert.equal(ids(await q({ user_id: alice.id })), [renewal.id, bought.id]);
  assert.equal(ids(await q({ billing_reason: 'subscription_create' })), [inEur.id, bought.id]);
  assert.equal(ids(await q({ billing_reason: 'subscription_cycle' })), [update.id, renewal.id], 'cycles include subscription_update');
  assert.equal(ids(await q({ billing_reason: 'subscription_update' })), [update.id]);
  assert.equal(ids(await q({ query: 'zephyr' })), [renewal.id, bought.id]);
  assert.equal(ids(await q({ query: alice.user.email.toUpperCase() })), [renewal.id, bought.id]);
  assert.equal(ids(await q({ query: '%' })), [], '% matches literally');
  const middle = await app.db('payments').where({ id: inEur.id }).first('created_at');
  assert.equal(ids(await q({ created_before: middle.created_at })), [declined.id, bought.id]);
  assert.equal(ids(await q({ created_after: middle.created_at })), [update.id, renewal.id]);
});

t('an invalid status and every proxy-only filter are 400s naming the parameter', async () => {
  const s = await makeSeller(app.db);
  const bad = await list(s.key, { status: 'paid' });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'status');
  const proxyOnly: Array<[Record<string, any>, string]> = [
    [{ statuses: ['paid'] }, 'statuses'],
    [{ plan_ids: ['plan_x'] }, 'plan_ids'],
    [{ product_ids: ['prod_x'] }, 'product_ids'],
    [{ billing_reasons: ['one_time'] }, 'billing_reasons'],
    [{ currencies: ['usd'] }, 'currencies'],
    [{ substatuses: ['x'] }, 'substatuses'],
    [{ updated_before: '2026-01-01T00:00:00Z' }, 'updated_before'],
    [{ updated_after: '2026-01-01T00:00:00Z' }, 'updated_after'],
    [{ checkout_configuration_ids: ['chcfg_x'] }, 'checkout_configuration_ids'],
    [{ include_free: 'true' }, 'include_free'],
  ];
  for (const [query, param] of proxyOnly) {
    const res = await list(s.key, { account_id: s.accountId, ...query });
    assert.is(res.status, 400, param);
    assert.is(res.body.error.type, 'invalid_request', param);
    assert.ok(res.body.error.param?.startsWith(param), `${param}: ${res.body.error.param}`);
  }
});

t('without account_id: every account the credential reads; a buyer token is not served (403)', async () => {
  const parent = await makeSeller(app.db);
  const other = await makeSeller(app.db);
  const mine = await pay(app, parent, { amount: 100, currency: 'usd' });
  const theirs = await pay(app, other, { amount: 100, currency: 'usd' });
  const byKey = await list(parent.key);
  assert.equal(ids(byKey), [mine.id]);
  const byOwnerToken = await list(parent.token);
  assert.equal(ids(byOwnerToken), [mine.id]);
  const buyer = await makeUser(app.db);
  await pay(app, parent, { amount: 100, currency: 'usd' }, { buyerId: buyer.id });
  const buyerList = await list(buyer.token);
  assert.is(buyerList.status, 403);
  assert.is(buyerList.body.error.type, 'permission_denied');
  const buyerRetrieve = await app.request('GET', `/payments/${mine.id}`, { token: (await makeUser(app.db)).token, version: VERSION });
  assert.is(buyerRetrieve.status, 404, 'a stranger sees nothing');
  const ownPayment = await app.db('payments').where({ user_id: buyer.id }).first('id');
  const ownRetrieve = await app.request('GET', `/payments/${ownPayment.id}`, { token: buyer.token, version: VERSION });
  assert.is(ownRetrieve.status, 403, 'the buyer is refused, not misled');
  assert.ok(theirs.id);
});

t('retrieve is account-scoped: 404 for other accounts, 403 without payment:basic:read', async () => {
  const s = await makeSeller(app.db);
  const { id } = await pay(app, s, { amount: 100, currency: 'usd' });
  const viewer = await viewerKey(app.db, s.accountId);
  assert.is((await app.request('GET', `/payments/${id}`, { token: viewer, version: VERSION })).status, 200);
  const stranger = await makeOwner(app.db);
  const hidden = await app.request('GET', `/payments/${id}`, { token: stranger.key, version: VERSION });
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.param, 'id');
  const anonymous = await app.request('GET', '/payments', { version: VERSION });
  assert.is(anonymous.status, 401);
  assert.is((await app.request('GET', '/payments/pay_nope', { token: s.key, version: VERSION })).status, 404);
  assert.is((await app.request('GET', '/payments/pay_nope/fees', { token: s.key, version: VERSION })).status, 404);
  const hiddenList = await list(stranger.key, { account_id: s.accountId });
  assert.is(hiddenList.status, 404);
  // A key's policy cannot change (POST /api_keys makes a new one): a key allowed only company:basic:read.
  const basic = (await makeKey(app.db, { accountId: s.accountId, statements: [{ effect: 'allow', actions: ['company:basic:read'] }] })).secret;
  const narrow = await app.request('GET', `/payments/${id}`, { token: basic, version: VERSION });
  assert.is(narrow.status, 403);
  const narrowList = await list(basic, { account_id: s.accountId });
  assert.is(narrowList.status, 403);
});

t.run();
