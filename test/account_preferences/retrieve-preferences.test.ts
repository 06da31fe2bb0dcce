import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeKey, makeAccount } from '../helpers/fixtures.js';

const t = suite('GET /accounts/{account_id}/preferences');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('an account that never saved preferences reads every field at its default', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
  assert.is(res.status, 200);
  assert.equal(res.body, {
    ads_agreement: { status: 'not_required', agreement_version: null, printed_name: null, accepted_at: null },
    ads_payment_methods: null,
    ads_reporting_currency: 'usd',
    ads_scheduling_timezone: 'America/New_York',
    ads_triplewhale_integration: { status: 'not_connected', masked_api_key: null, shop_domain: null },
    cards_auto_top_up: false,
    cards_notifications: true,
    dispute_fighter_enabled: false,
    economic_intelligence: { enabled: false, ends_at: null, offer_key: null, auto_renew: false, trial_ends_at: null },
  });
  const rows = await app.db('account_preferences').where({ account_id: o.accountId });
  assert.is(rows.length, 0, 'reading does not create a document');
});

t('the owner reads with a user token', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.token });
  assert.is(res.status, 200);
  assert.is(res.body.ads_reporting_currency, 'usd');
});

t('a key whose statements lack company:preferences:read is a 403', async () => {
  const o = await makeOwner(app.db);
  const key = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['company:basic:read'] }] });
  const res = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: key.secret });
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
  assert.match(res.body.error.message, 'company:preferences:read');
});

t('a key whose statements allow company:preferences:read reads', async () => {
  const o = await makeOwner(app.db);
  const key = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['company:preferences:read'] }] });
  const res = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: key.secret });
  assert.is(res.status, 200);
});

t('another account is a 404 naming account_id', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const res = await app.request('GET', `/accounts/${b.accountId}/preferences`, { token: a.key });
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
  assert.is(res.body.error.param, 'account_id');
});

t('a parent key reads a connected account\'s preferences', async () => {
  const p = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId });
  const res = await app.request('GET', `/accounts/${child.id}/preferences`, { token: p.key });
  assert.is(res.status, 200);
  assert.is(res.body.cards_notifications, true);
});

t.run();
