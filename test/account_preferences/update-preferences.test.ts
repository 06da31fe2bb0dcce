import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeKey } from '../helpers/fixtures.js';
import { makeBalance, eventsOf } from './preference-fixtures.js';

const t = suite('PATCH /accounts/{account_id}/preferences');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const patch = (o: { accountId: string; key: string }, body: unknown, token = o.key) =>
  app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token, body });

t('changes only the fields sent, keeps them, and returns the whole document', async () => {
  const o = await makeOwner(app.db);
  const res = await patch(o, { cards_notifications: false, dispute_fighter_enabled: true, ads_reporting_currency: 'eur' });
  assert.is(res.status, 200);
  assert.is(res.body.cards_notifications, false);
  assert.is(res.body.dispute_fighter_enabled, true);
  assert.is(res.body.ads_reporting_currency, 'eur');
  assert.is(res.body.ads_scheduling_timezone, 'America/New_York');
  assert.is(res.body.ads_agreement.status, 'not_required');

  const second = await patch(o, { dispute_fighter_enabled: false });
  assert.is(second.body.cards_notifications, false, 'an earlier change stays');
  assert.is(second.body.dispute_fighter_enabled, false);
  const read = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
  assert.equal(read.body, second.body);
});

t('an unknown reporting currency is a 400 naming ads_reporting_currency', async () => {
  const o = await makeOwner(app.db);
  const upper = await patch(o, { ads_reporting_currency: 'USD' });
  assert.is(upper.status, 400);
  assert.is(upper.body.error.type, 'invalid_request');
  assert.is(upper.body.error.param, 'ads_reporting_currency');
  const unknown = await patch(o, { ads_reporting_currency: 'zzq' });
  assert.is(unknown.status, 400);
  assert.is(unknown.body.error.param, 'ads_reporting_currency');
  assert.match(unknown.body.error.message, 'ISO 4217');
});

t('the scheduling timezone must be an IANA zone and is stored in its canonical spelling', async () => {
  const o = await makeOwner(app.db);
  const ok = await patch(o, { ads_scheduling_timezone: 'europe/berlin' });
  assert.is(ok.status, 200);
  assert.is(ok.body.ads_scheduling_timezone, 'Europe/Berlin');
  for (const zone of ['Mars/Olympus_Mons', '+02:00']) {
    const res = await patch(o, { ads_scheduling_timezone: zone });
    assert.is(res.status, 400, zone);
    assert.is(res.body.error.type, 'invalid_request');
    assert.is(res.body.error.param, 'ads_scheduling_timezone');
  }
  const read = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
  assert.is(read.body.ads_scheduling_timezone, 'Europe/Berlin', 'a refused write changes nothing');
});

t('cards_auto_top_up needs a cards balance; without one it reads false', async () => {
  const o = await makeOwner(app.db);
  const refused = await patch(o, { cards_auto_top_up: true });
  assert.is(refused.status, 400);
  assert.is(refused.body.error.param, 'cards_auto_top_up');
  assert.match(refused.body.error.message, 'cards balance');
  assert.is((await patch(o, { cards_auto_top_up: false })).status, 200, 'turning it off needs no balance');

  const cards = await makeBalance(app.db, { accountId: o.accountId, kind: 'cards' });
  const on = await patch(o, { cards_auto_top_up: true });
  assert.is(on.status, 200);
  assert.is(on.body.cards_auto_top_up, true);

  await app.db('ledger_accounts').where({ id: cards }).delete(); // sql-state-write: the product never removes a ledger account; proves the preference reads false when the cards balance is missing
  const read = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
  assert.is(read.body.cards_auto_top_up, false, 'false once the cards balance is gone');
});

t('a business balance is not a cards balance', async () => {
  const o = await makeOwner(app.db);
  await makeBalance(app.db, { accountId: o.accountId, kind: 'business' });
  const res = await patch(o, { cards_auto_top_up: true });
  assert.is(res.status, 400);
  assert.is(res.body.error.param, 'cards_auto_top_up');
});

t('the integration connects with a key and a shop domain; the key is only ever shown masked', async () => {
  const o = await makeOwner(app.db);
  const key = 'twk_live_9f8e7d6c5b4a';
  const noShop = await patch(o, { ads_triplewhale_integration: { api_key: key } });
  assert.is(noShop.status, 200);
  assert.equal(noShop.body.ads_triplewhale_integration, { status: 'requires_shop_domain', masked_api_key: 'twk_************', shop_domain: null });
  assert.not.match(JSON.stringify(noShop.body), key);

  const connected = await patch(o, { ads_triplewhale_integration: { shop_domain: 'Shop.Example.com' } });
  assert.equal(connected.body.ads_triplewhale_integration, { status: 'connected', masked_api_key: 'twk_************', shop_domain: 'shop.example.com' });
  const read = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
  assert.not.match(JSON.stringify(read.body), key);
  const events = await eventsOf(app.db, o.accountId, 'account.preferences.updated');
  assert.not.ok(events.some((e) => JSON.stringify(e.data).includes(key)), 'events never carry the key');

  const removedShop = await patch(o, { ads_triplewhale_integration: { shop_domain: null } });
  assert.is(removedShop.body.ads_triplewhale_integration.status, 'requires_shop_domain');
});

t('api_key null disconnects and forgets the shop domain', async () => {
  const o = await makeOwner(app.db);
  await patch(o, { ads_triplewhale_integration: { api_key: 'abcd1234efgh', shop_domain: 'a.example.com' } });
  const res = await patch(o, { ads_triplewhale_integration: { api_key: null } });
  assert.is(res.status, 200);
  assert.equal(res.body.ads_triplewhale_integration, { status: 'not_connected', masked_api_key: null, shop_domain: null });
  const stored = await app.db('account_preferences').where({ account_id: o.accountId }).first();
  assert.is(stored.document.ads_triplewhale_integration.api_key, null, 'the key is cleared from storage');
});

t('a shop domain alone does not connect', async () => {
  const o = await makeOwner(app.db);
  const res = await patch(o, { ads_triplewhale_integration: { shop_domain: 'b.example.com' } });
  assert.equal(res.body.ads_triplewhale_integration, { status: 'not_connected', masked_api_key: null, shop_domain: 'b.example.com' });
});

t('integration inputs are validated: short key, bad domain, unknown field', async () => {
  const o = await makeOwner(app.db);
  const short = await patch(o, { ads_triplewhale_integration: { api_key: 'abc' } });
  assert.is(short.status, 400);
  assert.is(short.body.error.param, 'ads_triplewhale_integration.api_key');
  const domain = await patch(o, { ads_triplewhale_integration: { shop_domain: 'not a domain' } });
  assert.is(domain.status, 400);
  assert.is(domain.body.error.param, 'ads_triplewhale_integration.shop_domain');
  const status = await patch(o, { ads_triplewhale_integration: { status: 'connected' } });
  assert.is(status.status, 400);
  assert.is(status.body.error.param, 'ads_triplewhale_integration.status');
});

t('read-only fields are refused: economic_intelligence and ads_agreement', async () => {
  const o = await makeOwner(app.db);
  const ei = await patch(o, { economic_intelligence: { enabled: true } });
  assert.is(ei.status, 400);
  assert.is(ei.body.error.type, 'invalid_request');
  assert.is(ei.body.error.param, 'economic_intelligence');
  const agreement = await patch(o, { ads_agreement: { status: 'signed' } });
  assert.is(agreement.status, 400);
  assert.is(agreement.body.error.param, 'ads_agreement');
  const wrongType = await patch(o, { cards_notifications: 'no' });
  assert.is(wrongType.status, 400);
  assert.is(wrongType.body.error.param, 'cards_notifications');
});

t('emits account.preferences.updated with the document, only when something changed', async () => {
  const o = await makeOwner(app.db);
  const res = await patch(o, { dispute_fighter_enabled: true });
  let events = await eventsOf(app.db, o.accountId, 'account.preferences.updated');
  assert.is(events.length, 1);
  assert.equal(events[0].data, res.body);

  await patch(o, { dispute_fighter_enabled: true });
  await patch(o, {});
  events = await eventsOf(app.db, o.accountId, 'account.preferences.updated');
  assert.is(events.length, 1, 'no event for a write that changes nothing');
});

t('a refused write leaves no event and no change', async () => {
  const o = await makeOwner(app.db);
  const res = await patch(o, { dispute_fighter_enabled: true, ads_scheduling_timezone: 'Nowhere/Land' });
  assert.is(res.status, 400);
  assert.is((await eventsOf(app.db, o.accountId, 'account.preferences.updated')).length, 0);
  const read = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
  assert.is(read.body.dispute_fighter_enabled, false);
});

t('a key with only company:preferences:read is a 403 on update', async () => {
  const o = await makeOwner(app.db);
  const key = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['company:preferences:read'] }] });
  const res = await patch(o, { cards_notifications: false }, key.secret);
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
  assert.match(res.body.error.message, 'company:preferences:update');
});

t('a key allowed company:preferences:update but denied it explicitly is a 403', async () => {
  const o = await makeOwner(app.db);
  const key = await makeKey(app.db, {
    accountId: o.accountId,
    statements: [{ effect: 'allow', actions: ['company:*'] }, { effect: 'deny', actions: ['company:preferences:update'] }],
  });
  assert.is((await patch(o, { cards_notifications: false }, key.secret)).status, 403);
  assert.is((await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: key.secret })).status, 200);
});

t('another account is a 404', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const res = await app.request('PATCH', `/accounts/${b.accountId}/preferences`, { token: a.key, body: { cards_notifications: false } });
  assert.is(res.status, 404);
  assert.is(res.body.error.param, 'account_id');
  const read = await app.request('GET', `/accounts/${b.accountId}/preferences`, { token: b.key });
  assert.is(read.body.cards_notifications, true);
});

t.run();
