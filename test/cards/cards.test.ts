// POST/GET/PATCH /cards and GET /cardholders: issuing (refused while cards_notifications is false), cardholders,
// freeze, unfreeze, cancel, and who may see what.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { cardsLedger, requestCard, VERSION } from './card-fixtures.js';

const t = suite('cards');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('a card is issued active to the owner, with a cardholder and a cards balance made with it', async () => {
  const o = await makeOwner(app.db);
  assert.is(await cardsLedger(app, o.accountId), undefined);
  const card = await requestCard(app, o.key, { account_id: o.accountId, name: 'Ads' });
  assert.match(card.id, /^icrd_/);
  assert.equal([card.object, card.status, card.type, card.name, card.account_id, card.user_id, card.canceled_at],
    ['card', 'active', 'virtual', 'Ads', o.accountId, o.owner.id, null]);
  assert.match(card.last4, /^[0-9]{4}$/);
  // Three years from the card's own issue (not from the test's clock, which may have passed a New Year since).
  const issued = new Date(card.created_at);
  assert.equal([card.expiration_month, card.expiration_year],
    [String(issued.getUTCMonth() + 1).padStart(2, '0'), String(issued.getUTCFullYear() + 3)]);
  assert.match(card.cardholder_id, /^ichd_/);
  assert.ok(await cardsLedger(app, o.accountId));
  const holder = await app.request('GET', `/cardholders/${card.cardholder_id}`, { token: o.key, version: VERSION });
  assert.equal([holder.status, holder.body.object, holder.body.user_id, holder.body.account_id], [200, 'cardholder', o.owner.id, o.accountId]);
  const second = await requestCard(app, o.key, { account_id: o.accountId });
  assert.is(second.cardholder_id, card.cardholder_id);
  const event = await app.db('events').where({ type: 'card.created' }).whereRaw("data->>'id' = ?", [card.id]).first();
  assert.is(event.account_id, o.accountId);
});

t('concurrent first cards make one cardholder and one cards balance', async () => {
  const o = await makeOwner(app.db);
  const cards = await Promise.all([1, 2, 3, 4].map(() => requestCard(app, o.key, { account_id: o.accountId })));
  assert.is(new Set(cards.map((c) => c.cardholder_id)).size, 1);
  assert.is((await app.db('ledger_accounts').where({ account_id: o.accountId, kind: 'cards' })).length, 1);
  assert.is((await app.db('notifications').where({ user_id: o.owner.id, type: 'cardholder_onboarding' })).length, 1);
});

t('requesting a card is refused while cards_notifications is false, and allowed again once it is true', async () => {
  const o = await makeOwner(app.db);
  const off = await app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, version: VERSION, body: { cards_notifications: false } });
  assert.is(off.status, 200, JSON.stringify(off.body));
  const res = await app.request('POST', '/cards', { token: o.key, version: VERSION, body: { account_id: o.accountId } });
  assert.is(res.status, 400);
  assert.equal([res.body.error.type, res.body.error.param], ['invalid_state', 'cards_notifications']);
  assert.is((await app.db('cards').where({ account_id: o.accountId })).length, 0);
  assert.is((await app.db('cardholders').where({ account_id: o.accountId })).length, 0);
  await app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, version: VERSION, body: { cards_notifications: true } });
  await requestCard(app, o.key, { account_id: o.accountId });
});

t('assigned_user_id must be an active team member; a user token defaults to its own user', async () => {
  const o = await makeOwner(app.db);
  const stranger = await makeUser(app.db);
  const res = await app.request('POST', '/cards', { token: o.key, version: VERSION, body: { account_id: o.accountId, assigned_user_id: stranger.id } });
  assert.equal([res.status, res.body.error?.param], [404, 'assigned_user_id']);
  const bad = await app.request('POST', '/cards', { token: o.key, version: VERSION, body: { account_id: o.accountId, assigned_user_id: 'biz_nope' } });
  assert.equal([bad.status, bad.body.error?.param], [400, 'assigned_user_id']);
  const mine = await requestCard(app, o.token, { account_id: o.accountId });
  assert.is(mine.user_id, o.owner.id);
});

t('another account, its cards and cardholders are 404; a key without card scopes is 403', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const card = await requestCard(app, b.key, { account_id: b.accountId });
  for (const [method, path] of [['GET', `/cards/${card.id}`], ['PATCH', `/cards/${card.id}`], ['GET', `/cardholders/${card.cardholder_id}`]]) {
    const res = await app.request(method, path, { token: a.key, version: VERSION, body: method === 'PATCH' ? { frozen: true } : undefined });
    assert.is(res.status, 404, `${method} ${path}`);
  }
  const create = await app.request('POST', '/cards', { token: a.key, version: VERSION, body: { account_id: b.accountId } });
  assert.is(create.status, 404);
  const list = await app.request('GET', '/cards', { token: a.key, version: VERSION, query: { account_id: b.accountId } });
  assert.is(list.status, 404);
  const reader = await makeKey(app.db, { accountId: b.accountId, role: 'moderator' });
  const denied = await app.request('GET', `/cards/${card.id}`, { token: reader.secret, version: VERSION });
  assert.is(denied.status, 403);
  const deniedCreate = await app.request('POST', '/cards', { token: reader.secret, version: VERSION, body: { account_id: b.accountId } });
  assert.is(deniedCreate.status, 403);
});

t('freeze, unfreeze, rename and cancel move the card through its lifecycle with events', async () => {
  const o = await makeOwner(app.db);
  const card = await requestCard(app, o.key, { account_id: o.accountId });
  const patch = (body: Record<string, unknown>) => app.request('PATCH', `/cards/${card.id}`, { token: o.key, version: VERSION, body });
  assert.is((await patch({ frozen: true })).body.status, 'frozen');
  assert.is((await patch({ frozen: true })).body.status, 'frozen'); // a no-op, no event
  assert.is((await patch({ frozen: false })).body.status, 'active');
  assert.is((await patch({ name: 'Travel' })).body.name, 'Travel');
  const both = await patch({ canceled: true, frozen: true });
  assert.equal([both.status, both.body.error.param], [400, 'frozen']);
  const uncancel = await patch({ canceled: false });
  assert.equal([uncancel.status, uncancel.body.error.param], [400, 'canceled']);
  const canceled = await patch({ canceled: true });
  assert.equal([canceled.status, canceled.body.status], [200, 'canceled']);
  assert.ok(Date.parse(canceled.body.canceled_at) > 0);
  const after = await patch({ frozen: true });
  assert.equal([after.status, after.body.error.type, after.body.error.param], [400, 'invalid_state', 'status']);
  const rename = await patch({ name: 'Again' });
  assert.equal([rename.status, rename.body.error.param], [400, 'status']);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [card.id]).orderBy('created_at').select('type');
  assert.equal(events.map((e) => e.type), ['card.created', 'card.frozen', 'card.unfrozen', 'card.updated', 'card.canceled']);
});

t('lists: cards by status and cardholder, cardholders by user, keyset pages', async () => {
  const o = await makeOwner(app.db);
  const c1 = await requestCard(app, o.key, { account_id: o.accountId });
  const c2 = await requestCard(app, o.key, { account_id: o.accountId });
  const c3 = await requestCard(app, o.key, { account_id: o.accountId });
  await app.request('PATCH', `/cards/${c2.id}`, { token: o.key, version: VERSION, body: { frozen: true } });
  const all = await app.request('GET', '/cards', { token: o.key, version: VERSION, query: { account_id: o.accountId } });
  assert.equal(all.body.data.map((c: any) => c.id), [c3.id, c2.id, c1.id]);
  const frozen = await app.request('GET', '/cards', { token: o.key, version: VERSION, query: { account_id: o.accountId, status: 'frozen' } });
  assert.equal(frozen.body.data.map((c: any) => c.id), [c2.id]);
  const page1 = await app.request('GET', '/cards', { token: o.key, version: VERSION, query: { account_id: o.accountId, first: 2 } });
  assert.equal([page1.body.data.length, page1.body.page_info.has_next_page], [2, true]);
  const page2 = await app.request('GET', '/cards', { token: o.key, version: VERSION, query: { account_id: o.accountId, first: 2, after: page1.body.page_info.end_cursor } });
  assert.equal(page2.body.data.map((c: any) => c.id), [c1.id]);
  const byHolder = await app.request('GET', '/cards', { token: o.key, version: VERSION, query: { cardholder_id: c1.cardholder_id } });
  assert.is(byHolder.body.data.length, 3);
  const byUser = await app.request('GET', '/cards', { token: o.key, version: VERSION, query: { account_id: o.accountId, user_id: o.owner.id, status: 'active' } });
  assert.equal(byUser.body.data.map((c: any) => c.id), [c3.id, c1.id]);
  const holders = await app.request('GET', '/cardholders', { token: o.key, version: VERSION, query: { account_id: o.accountId, user_id: o.owner.id } });
  assert.equal(holders.body.data.map((h: any) => h.id), [c1.cardholder_id]);
  const badStatus = await app.request('GET', '/cards', { token: o.key, version: VERSION, query: { status: 'lost' } });
  assert.equal([badStatus.status, badStatus.body.error.param], [400, 'status']);
});

t.run();
