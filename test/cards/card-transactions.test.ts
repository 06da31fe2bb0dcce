// GET /card_transactions and GET /card_transactions/{id}: filters, pages, ownership, and the older shape before
// 2026-07-30 (changelog entry 49: company_id, decimal-number amounts; the list owned by company_id).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { stepCardTransaction } from '../../sandbox/card_network/index.js';
import { renderAt } from '../../runtime/render.js';
import { authorizePurchase, cardOwner, requestCard, VERSION } from './card-fixtures.js';

const OLDER = '2026-07-20';

const t = suite('cards: card transactions');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const list = (token: string, query: Record<string, any>, version = VERSION) =>
  app.request('GET', '/card_transactions', { token, version, query });
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id);

t('lists filter by transaction_ids, card_id, cardholder_id, status and created bounds, newest first, in pages', async () => {
  const o = await cardOwner(app, { cards: 10_000 });
  const other = await requestCard(app, o.key, { account_id: o.accountId });
  const a = (await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 100 })).body;
  const b = (await authorizePurchase(app, o.key, { card_id: other.id, amount: 200 })).body;
  const c = (await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 99_999 })).body;
  await stepCardTransaction(app.db, a.id);
  assert.equal(ids(await list(o.key, { account_id: o.accountId })), [c.id, b.id, a.id]);
  assert.equal(ids(await list(o.key, { account_id: o.accountId, card_id: o.card.id })), [c.id, a.id]);
  assert.equal(ids(await list(o.key, { cardholder_id: o.card.cardholder_id })), [c.id, b.id, a.id]);
  assert.equal(ids(await list(o.key, { account_id: o.accountId, status: 'settled' })), [a.id]);
  assert.equal(ids(await list(o.key, { account_id: o.accountId, status: 'declined' })), [c.id]);
  assert.equal(ids(await list(o.key, { account_id: o.accountId, transaction_ids: [a.id, c.id] })), [c.id, a.id]);
  assert.equal(ids(await list(o.key, { account_id: o.accountId, created_after: b.created_at })), [c.id]);
  assert.equal(ids(await list(o.key, { account_id: o.accountId, created_before: b.created_at })), [a.id]);
  const page1 = await list(o.key, { account_id: o.accountId, first: 2 });
  assert.equal([ids(page1), page1.body.page_info.has_next_page], [[c.id, b.id], true]);
  assert.equal(ids(await list(o.key, { account_id: o.accountId, first: 2, after: page1.body.page_info.end_cursor })), [a.id]);
  const one = await app.request('GET', `/card_transactions/${b.id}`, { token: o.key, version: VERSION });
  assert.equal([one.status, one.body.id, one.body.amount.amount, one.body.card_id], [200, b.id, 200, other.id]);
});

t('bad filters are 400 naming the parameter', async () => {
  const o = await makeOwner(app.db);
  for (const [query, param] of [[{ status: 'lost' }, 'status'], [{ created_after: '2026-01-01' }, 'created_after'],
    [{ card_id: 'citx_1' }, 'card_id'], [{ transaction_ids: ['icrd_1'] }, 'transaction_ids']] as const) {
    const res = await list(o.key, { account_id: o.accountId, ...query });
    assert.equal([res.status, res.body.error?.param?.split('[')[0]], [400, param], JSON.stringify(query));
  }
});

t('another account\'s transactions are 404 and never listed; without card:basic:read 403', async () => {
  const a = await makeOwner(app.db);
  const b = await cardOwner(app);
  const tx = (await authorizePurchase(app, b.key, { card_id: b.card.id, amount: 100 })).body;
  assert.is((await app.request('GET', `/card_transactions/${tx.id}`, { token: a.key, version: VERSION })).status, 404);
  assert.is((await list(a.key, { account_id: b.accountId })).status, 404);
  assert.equal(ids(await list(a.key, {})), []);
  assert.equal(ids(await list(a.key, { card_id: b.card.id })), []);
  const viewer = await makeKey(app.db, { accountId: b.accountId, role: 'viewer' });
  assert.is((await app.request('GET', `/card_transactions/${tx.id}`, { token: viewer.secret, version: VERSION })).status, 403);
});

t(`before entry 49 (${OLDER}): company_id and decimal amounts; the list is owned by company_id`, async () => {
  const o = await cardOwner(app, { cards: 10_000 });
  const res = await authorizePurchase(app, o.key, { card_id: o.card.id, amount: 1_043 }, OLDER);
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal([res.body.company_id, res.body.account_id, res.body.amount, res.body.currency], [o.accountId, undefined, 10.43, 'usd']);
  const one = await app.request('GET', `/card_transactions/${res.body.id}`, { token: o.key, version: OLDER });
  assert.equal([one.body.company_id, one.body.amount, one.body.object], [o.accountId, 10.43, 'card_transaction']);
  const listed = await list(o.key, { company_id: o.accountId }, OLDER);
  assert.equal([listed.status, ids(listed), listed.body.data[0].amount], [200, [res.body.id], 10.43]);
  const renamed = await list(o.key, { account_id: o.accountId }, OLDER);
  assert.equal([renamed.status, renamed.body.error?.param], [400, 'account_id'], 'account_id is not a parameter there');
  const head = await list(o.key, { company_id: o.accountId });
  assert.equal([head.status, head.body.error?.param], [400, 'company_id']);
  const latest = await app.request('GET', `/card_transactions/${res.body.id}`, { token: o.key, version: VERSION });
  assert.equal([latest.body.account_id, latest.body.amount], [o.accountId, { amount: 1_043, currency: 'usd', decimals: 2, display_decimals: 2 }]);
  // A webhook subscription pinned before entry 49 receives card_transaction.* events in the older shape.
  const event = await app.db('events').where({ type: 'card_transaction.created' }).whereRaw("data->>'id' = ?", [res.body.id]).first();
  const old = renderAt('CardTransaction', event.data, OLDER) as Record<string, unknown>;
  assert.equal([old.company_id, old.amount, 'account_id' in old], [o.accountId, 10.43, false]);
});

t.run();
