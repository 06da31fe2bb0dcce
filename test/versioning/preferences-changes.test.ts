// Implemented changelog entries on account preferences and Economic Intelligence, before and after each.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { clockedOwner, funded } from '../account_preferences/ei-fixtures.js';

const t = suite('versioning: preferences and Economic Intelligence');
let app: TestApp;
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

const prefs = (o: { accountId: string; key: string }, version: string, body?: unknown) =>
  app.request(body === undefined ? 'GET' : 'PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, version, body });

t('#26 requires_shop_domain is named after a store before 2026-08-25, and shop_domain is writable from then', async () => {
  const o = await makeOwner(app.db);
  const set = await prefs(o, '2026-08-25', { ads_triplewhale_integration: { api_key: 'tw_live_abcdefgh' } });
  assert.is(set.status, 200);
  assert.is(set.body.ads_triplewhale_integration.status, 'requires_shop_domain');
  assert.is((await prefs(o, '2026-08-21')).body.ads_triplewhale_integration.status, 'requires_shopify_store');
  const old = await prefs(o, '2026-08-21', { ads_triplewhale_integration: { api_key: 'tw_live_abcdefgh', shop_domain: 'shop.example.com' } });
  assert.is(old.status, 400);
  assert.is(old.body.error.param, 'ads_triplewhale_integration.shop_domain');
  const now = await prefs(o, '2026-08-25', { ads_triplewhale_integration: { api_key: 'tw_live_abcdefgh', shop_domain: 'shop.example.com' } });
  assert.is(now.body.ads_triplewhale_integration.status, 'connected');
  assert.is((await prefs(o, '2026-08-21')).body.ads_triplewhale_integration.status, 'connected');
});

t('#16 Economic Intelligence is chosen by duration_days before 2026-08-28 and by key from it', async () => {
  // Offers are paid from the account's balance: accounts on a clock, funded by a sale whose funds cleared.
  const a = await clockedOwner(app);
  await funded(app, a, 50_000);
  const old = await prefs(a, '2026-08-25', { economic_intelligence_duration_days: 30 });
  assert.is(old.status, 200);
  assert.is(old.body.economic_intelligence.offer_key, 'days_30');
  assert.is(Date.parse(old.body.economic_intelligence.ends_at) - a.now, 30 * 86_400_000);
  const b = await clockedOwner(app);
  await funded(app, b, 50_000);
  const refusedKey = await prefs(b, '2026-08-25', { economic_intelligence_duration_key: 'days_30' });
  assert.is(refusedKey.status, 400);
  assert.is(refusedKey.body.error.param, 'economic_intelligence_duration_key');
  const refusedDays = await prefs(b, '2026-08-28', { economic_intelligence_duration_days: 30 });
  assert.is(refusedDays.status, 400);
  assert.is(refusedDays.body.error.param, 'economic_intelligence_duration_days');
  const unknownDays = await prefs(b, '2026-08-25', { economic_intelligence_duration_days: 11 });
  assert.is(unknownDays.status, 400);
  const now = await prefs(b, '2026-08-28', { economic_intelligence_duration_key: 'days_90' });
  assert.is(now.status, 200);
  assert.is(now.body.economic_intelligence.offer_key, 'days_90');
});

t('#6 from 2026-09-02 the offers list only what can be picked now; before, every offer', async () => {
  const o = await makeOwner(app.db);
  // The first weekly period is the free trial: on without funds.
  const on = await prefs(o, '2026-09-06', { economic_intelligence_duration_key: 'weekly' });
  assert.is(on.status, 200);
  const account = (version: string) => app.request('GET', `/accounts/${o.accountId}`, { token: o.key, version });
  assert.equal((await account('2026-09-02')).body.economic_intelligence_offers, []);
  const before = (await account('2026-08-28')).body.economic_intelligence_offers;
  assert.equal(before.map((x: any) => x.key).sort(), ['days_30', 'days_90', 'hours_48']);
});

t.run();
