import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { makeBalance, makeCard } from './preference-fixtures.js';

const t = suite('ads_payment_methods in account preferences');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const patch = (o: { accountId: string; key: string }, body: unknown) =>
  app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, body });

t('a business balance as primary and a card as backup expand to their facts', async () => {
  const o = await makeOwner(app.db, { title: 'Acme Ads' });
  const logo = await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: headVersion(), body: { logo_url: 'https://cdn.example.com/acme.png' } });
  assert.is(logo.status, 200, JSON.stringify(logo.body));
  const balance = await makeBalance(app.db, { accountId: o.accountId, kind: 'business', title: 'Main balance' });
  const card = await makeCard(app, o.accountId, { brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2029 });
  const res = await patch(o, { ads_payment_methods: { primary: { type: 'platform_balance', id: balance }, backup: { type: 'card', id: card } } });
  assert.is(res.status, 200);
  assert.equal(res.body.ads_payment_methods, {
    primary: {
      type: 'platform_balance', id: balance, card_brand: null, exp_month: null, exp_year: null, last4: null,
      icon_url: 'https://cdn.example.com/acme.png', title: 'Main balance',
    },
    backup: { type: 'card', id: card, card_brand: 'mastercard', exp_month: 3, exp_year: 2029, last4: '4444', icon_url: null, title: null },
  });
  const stored = await app.db('account_preferences').where({ account_id: o.accountId }).first();
  assert.equal(stored.document.ads_payment_methods.backup, { type: 'card', id: card }, 'only the reference is stored');
});

t('a business balance without a title shows the account title; a personal balance has a null title', async () => {
  const o = await makeOwner(app.db, { title: 'Untitled Co' });
  const business = await makeBalance(app.db, { accountId: o.accountId, kind: 'business' });
  const person = await makeUser(app.db);
  const picture = await app.request('PATCH', `/users/${person.id}`, { token: person.token, version: headVersion(), body: { profile_picture_url: 'https://cdn.example.com/me.png' } });
  assert.is(picture.status, 200, JSON.stringify(picture.body));
  const personal = await makeBalance(app.db, { accountId: o.accountId, kind: 'personal', title: 'My wallet', userId: person.id });
  const a = await patch(o, { ads_payment_methods: { primary: { type: 'platform_balance', id: business } } });
  assert.is(a.body.ads_payment_methods.primary.title, 'Untitled Co');
  assert.is(a.body.ads_payment_methods.backup, null);
  const b = await patch(o, { ads_payment_methods: { primary: { type: 'platform_balance', id: personal } } });
  assert.is(b.body.ads_payment_methods.primary.title, null);
  assert.is(b.body.ads_payment_methods.primary.icon_url, 'https://cdn.example.com/me.png');
});

t('sent keys replace, omitted keys stay, null removes one, null for the object clears billing', async () => {
  const o = await makeOwner(app.db);
  const card1 = await makeCard(app, o.accountId);
  const card2 = await makeCard(app, o.accountId, { last4: '1881' });
  await patch(o, { ads_payment_methods: { primary: { type: 'card', id: card1 }, backup: { type: 'card', id: card2 } } });
  const kept = await patch(o, { ads_payment_methods: {} });
  assert.is(kept.body.ads_payment_methods.primary.id, card1);
  assert.is(kept.body.ads_payment_methods.backup.id, card2);
  const noBackup = await patch(o, { ads_payment_methods: { backup: null } });
  assert.is(noBackup.body.ads_payment_methods.primary.id, card1);
  assert.is(noBackup.body.ads_payment_methods.backup, null);
  const cleared = await patch(o, { ads_payment_methods: null });
  assert.is(cleared.status, 200);
  assert.is(cleared.body.ads_payment_methods, null);
});

t('the type must match the id prefix', async () => {
  const o = await makeOwner(app.db);
  const card = await makeCard(app, o.accountId);
  const balance = await makeBalance(app.db, { accountId: o.accountId, kind: 'business' });
  const a = await patch(o, { ads_payment_methods: { primary: { type: 'platform_balance', id: card } } });
  assert.is(a.status, 400);
  assert.is(a.body.error.param, 'ads_payment_methods.primary.id');
  assert.match(a.body.error.message, 'ldgr_');
  const b = await patch(o, { ads_payment_methods: { primary: { type: 'card', id: balance } } });
  assert.is(b.status, 400);
  assert.is(b.body.error.param, 'ads_payment_methods.primary.id');
});

t('ids of another account, unknown ids and other prefixes are 400s naming the id', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const theirCard = await makeCard(app, other.accountId);
  const theirBalance = await makeBalance(app.db, { accountId: other.accountId, kind: 'business' });
  const mine = await makeCard(app, o.accountId);
  const card = await patch(o, { ads_payment_methods: { primary: { type: 'card', id: mine }, backup: { type: 'card', id: theirCard } } });
  assert.is(card.status, 400);
  assert.is(card.body.error.param, 'ads_payment_methods.backup.id');
  const balance = await patch(o, { ads_payment_methods: { primary: { type: 'platform_balance', id: theirBalance } } });
  assert.is(balance.status, 400);
  assert.is(balance.body.error.param, 'ads_payment_methods.primary.id');
  const unknown = await patch(o, { ads_payment_methods: { primary: { type: 'card', id: 'payt_doesnotexist' } } });
  assert.is(unknown.status, 400);
  assert.is(unknown.body.error.param, 'ads_payment_methods.primary.id');
  const prefix = await patch(o, { ads_payment_methods: { primary: { type: 'card', id: 'biz_123' } } });
  assert.is(prefix.status, 400);
  assert.is(prefix.body.error.param, 'ads_payment_methods.primary.id');
  const read = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
  assert.is(read.body.ads_payment_methods, null, 'nothing was stored');
});

t('a cards balance and a non-card saved method are refused', async () => {
  const o = await makeOwner(app.db);
  const cards = await makeBalance(app.db, { accountId: o.accountId, kind: 'cards' });
  const bank = await makeCard(app, o.accountId, { type: 'bank_account' });
  const a = await patch(o, { ads_payment_methods: { primary: { type: 'platform_balance', id: cards } } });
  assert.is(a.status, 400);
  assert.is(a.body.error.param, 'ads_payment_methods.primary.id');
  assert.match(a.body.error.message, 'cards balance');
  const b = await patch(o, { ads_payment_methods: { primary: { type: 'card', id: bank } } });
  assert.is(b.status, 400);
  assert.is(b.body.error.param, 'ads_payment_methods.primary.id');
});

t('a backup needs a primary and must differ from it', async () => {
  const o = await makeOwner(app.db);
  const card = await makeCard(app, o.accountId);
  const alone = await patch(o, { ads_payment_methods: { backup: { type: 'card', id: card } } });
  assert.is(alone.status, 400);
  assert.is(alone.body.error.param, 'ads_payment_methods.backup');
  const same = await patch(o, { ads_payment_methods: { primary: { type: 'card', id: card }, backup: { type: 'card', id: card } } });
  assert.is(same.status, 400);
  assert.is(same.body.error.param, 'ads_payment_methods.backup.id');
});

t('the choice shape is validated: missing id, unknown type, extra keys', async () => {
  const o = await makeOwner(app.db);
  const missing = await patch(o, { ads_payment_methods: { primary: { type: 'card' } } });
  assert.is(missing.status, 400);
  assert.is(missing.body.error.param, 'ads_payment_methods.primary.id');
  const type = await patch(o, { ads_payment_methods: { primary: { type: 'paypal', id: 'payt_x' } } });
  assert.is(type.status, 400);
  assert.is(type.body.error.param, 'ads_payment_methods.primary.type');
  const extra = await patch(o, { ads_payment_methods: { primary: { type: 'card', id: 'payt_x', last4: '4242' } } });
  assert.is(extra.status, 400);
  assert.is(extra.body.error.param, 'ads_payment_methods.primary.last4');
});

t.run();
