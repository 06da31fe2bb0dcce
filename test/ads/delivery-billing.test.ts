// The simulated ad network and billing, driven by a clock the test holds (deliverDue(db, now) is what the hourly
// task runs with the wall clock): figures by the documented model, computed here independently; stats windows from
// the hourly and daily rollups; GET /stats/ad_delivery; charges to the primary balance through the ledger, then the
// backup card; both failing stops delivery (payment_failed, an issue, webhooks events); retry_ads_payment charges
// the failed hours and resumes; webhook payloads of ads rendered per pin.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { fundBalance } from '../helpers/ledger.js';
import { makeCard } from '../account_preferences/preference-fixtures.js';
import { deliverDue } from '../../handlers/ads/deliver.js';
import { runAdsPaymentRetry } from '../../handlers/ads/retry-ads-payment.js';
import { envelope } from '../../handlers/webhooks/delivery/envelope.js';
import { advertiser, after, audience, firstHour, launchedTree } from './ads-fixtures.js';

const t = suite('ad delivery and billing');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

// The model for one traffic ad alone in its group with a daily budget of 24,000 (docs/sandbox/ad-network.md): 1,000 an hour buys
// floor(1000 * 1000 / 800) = 1250 impressions (under the cap of 1,000,000 / 100), 1.5% of them click: 18 clicks,
// each a result.
const HOURLY = { spend: 1000, impressions: 1250, clicks: 18, results: 18 };
const times = (n: number) => ({ spend: HOURLY.spend * n, impressions: HOURLY.impressions * n, clicks: HOURLY.clicks * n, results: HOURLY.results * n });
const stats = (o: any) => ({ spend: o.spend, impressions: o.impressions, clicks: o.clicks, results: o.results });

t('each hour delivers by the model, once; stats over any window read the rollups; GET /stats/ad_delivery scopes by source', async () => {
  const o = await advertiser(app, 1_000_000);
  const { campaign, group, ad } = await launchedTree(app, o);
  const start = await firstHour(app, campaign.id);
  await deliverDue(app.db, after(start, 30));
  await deliverDue(app.db, after(start, 30)); // a re-run delivers nothing twice
  const hours = await app.db('ad_delivery_hours').where({ ad_id: ad.id }).orderBy('hour');
  assert.is(hours.length, 30);
  assert.equal(stats({ ...hours[0], spend: Number(hours[0].spend), impressions: Number(hours[0].impressions), clicks: Number(hours[0].clicks), results: Number(hours[0].results) }), HOURLY);
  const window = { stats_from: new Date(start).toISOString(), stats_to: after(start, 30).toISOString() };
  for (const path of [`/ad_campaigns/${campaign.id}`, `/ad_groups/${group.id}`, `/ads/${ad.id}`]) {
    const res = await app.request('GET', path, { token: o.key, query: window });
    assert.equal(stats(res.body), times(30), path);
    assert.is(res.body.return_on_ad_spend, 0, 'traffic results carry no value');
  }
  // a window cutting hours off both ends: 3 hours in from the start, 2 hours short of the end
  const cut = { stats_from: after(start, 3).toISOString(), stats_to: after(start, 28).toISOString() };
  const listed = await app.request('GET', '/ad_campaigns', { token: o.key, query: { account_id: o.accountId, ...cut } });
  assert.equal(stats(listed.body.data[0]), times(25));
  const hourly = await app.request('GET', '/stats/ad_delivery', { token: o.key, query: { account_id: o.accountId, from: new Date(start).toISOString(), to: after(start, 4).toISOString(), interval: 'hour', source: `/ads/${ad.id}` } });
  assert.is(hourly.status, 200, JSON.stringify(hourly.body));
  assert.equal([hourly.body.data.points.length, hourly.body.data.spend, hourly.body.data.currency, hourly.body.data.source], [4, 4000, 'usd', `/ads/${ad.id}`]);
  const daily = await app.request('GET', '/stats/ad_delivery', { token: o.key, query: { account_id: o.accountId, from: new Date(start).toISOString(), to: after(start, 30).toISOString() } });
  assert.equal([daily.body.data.spend, daily.body.data.impressions, daily.body.data.clicks], [30000, 37500, 540]);
  const other = await advertiser(app);
  const foreign = await app.request('GET', '/stats/ad_delivery', { token: other.key, query: { account_id: other.accountId, from: new Date(start).toISOString(), to: after(start, 2).toISOString(), source: `/ad_campaigns/${campaign.id}` } });
  assert.equal([foreign.status, foreign.body.error.param], [404, 'source']);
  const tooMany = await app.request('GET', '/stats/ad_delivery', { token: o.key, query: { account_id: o.accountId, from: '2020-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z', interval: 'hour' } });
  assert.equal([tooMany.status, tooMany.body.error.param], [400, 'interval']);
  const badSource = await app.request('GET', '/stats/ad_delivery', { token: o.key, query: { account_id: o.accountId, from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z', source: '/payments/pay_1' } });
  assert.equal([badSource.status, badSource.body.error.param], [400, 'source']);
});

t('spend is charged hourly from the primary balance through the ledger; a paused campaign delivers nothing', async () => {
  const o = await advertiser(app, 10_000);
  const { campaign } = await launchedTree(app, o);
  const start = await firstHour(app, campaign.id);
  await deliverDue(app.db, after(start, 3));
  const charges = await app.db('ad_charges').where({ ad_campaign_id: campaign.id }).orderBy('hour');
  assert.equal(charges.map((c) => [Number(c.amount), c.status, c.method_id]), [[1000, 'succeeded', o.ledger], [1000, 'succeeded', o.ledger], [1000, 'succeeded', o.ledger]]);
  const balance = await app.db('ledger_balances').where({ ledger_id: o.ledger, bucket: 'available', currency: 'usd' }).first();
  assert.is(Number(balance.amount), 7000);
  await app.request('POST', `/ad_campaigns/${campaign.id}/pause`, { token: o.key });
  await deliverDue(app.db, after(start, 6));
  assert.is((await app.db('ad_charges').where({ ad_campaign_id: campaign.id })).length, 3);
});

t('the backup pays when the primary balance cannot; both failing stops delivery with payment_failed and an issue', async () => {
  const o = await advertiser(app, 1500);
  const card = await makeCard(app, o.accountId);
  await app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, body: { ads_payment_methods: { backup: { type: 'card', id: card } } } });
  const { campaign } = await launchedTree(app, o);
  const start = await firstHour(app, campaign.id);
  await deliverDue(app.db, after(start, 2));
  const charges = await app.db('ad_charges').where({ ad_campaign_id: campaign.id }).orderBy('hour');
  assert.equal(charges.map((c) => [c.status, c.method_type]), [['succeeded', 'platform_balance'], ['succeeded', 'card']]);
  await app.db('payment_methods').where({ id: card }).update({ test_behaviour: 'declined' }); // sql-state-write: the issuer starts declining a saved card mid-test; no API changes a saved card's behaviour
  await deliverDue(app.db, after(start, 5));
  const failed = await app.db('ad_charges').where({ ad_campaign_id: campaign.id, status: 'failed' });
  assert.equal(failed.map((c) => c.failure_reason), ['card_declined'], 'one failed hour, then delivery stops');
  const res = await app.request('GET', `/ad_campaigns/${campaign.id}`, { token: o.key });
  assert.equal([res.body.status, res.body.delivery_status, res.body.issues.map((i: any) => [i.id, i.resource_id, i.resource_type])],
    ['payment_failed', 'payment_failed', [['payment_failed', campaign.id, 'ad_campaign']]]);
  const unpause = await app.request('POST', `/ad_campaigns/${campaign.id}/unpause`, { token: o.key });
  assert.equal([unpause.status, unpause.body.error.type], [400, 'invalid_state']);
  const types = await app.db('events').whereRaw("data->>'id' = ?", [campaign.id]).orderBy('created_at').pluck('type');
  assert.equal(types.slice(-2), ['ad_campaign.delivery_changed', 'ad_campaign.payment_failed']);

  // retry_ads_payment: the card still declines, the balance is topped up: the failed hour is paid and delivery resumes
  await fundBalance(app.db, o.accountId, 5000);
  const retry = await app.request('POST', `/accounts/${o.accountId}/retry_ads_payment`, { token: o.key });
  assert.is(retry.status, 200);
  await runAdsPaymentRetry(app.db, retry.body.id);
  const done = await app.db('ads_payment_retries').where({ id: retry.body.id }).first();
  assert.equal([done.status, done.outcome], ['completed', null]);
  const paid = await app.db('ad_charges').where({ id: failed[0].id }).first();
  assert.equal([paid.status, paid.attempts, paid.method_type], ['succeeded', 2, 'platform_balance']);
  const resumed = await app.request('GET', `/ad_campaigns/${campaign.id}`, { token: o.key });
  assert.equal([resumed.body.status, resumed.body.delivery_status, resumed.body.issues], ['active', 'active', []]);
  const again = await app.request('POST', `/accounts/${o.accountId}/retry_ads_payment`, { token: o.key });
  await runAdsPaymentRetry(app.db, again.body.id);
  assert.is((await app.db('ads_payment_retries').where({ id: again.body.id }).first()).outcome, 'no_failed_campaigns');
});

t('a retry that fails again keeps the campaign stopped, its issue saying why', async () => {
  const o = await advertiser(app, 500);
  const { campaign } = await launchedTree(app, o);
  const start = await firstHour(app, campaign.id);
  await deliverDue(app.db, after(start, 1));
  assert.is((await app.db('ad_campaigns').where({ id: campaign.id }).first()).status, 'payment_failed');
  const retry = await app.request('POST', `/accounts/${o.accountId}/retry_ads_payment`, { token: o.key });
  await runAdsPaymentRetry(app.db, retry.body.id);
  const c = await app.db('ad_campaigns').where({ id: campaign.id }).first();
  assert.equal([c.status, c.issues[0].id], ['payment_failed', 'payment_failed']);
  assert.match(c.issues[0].message, /insufficient_funds/);
});

t('ad webhooks render per pin: social_accounts before entry 11, external_accounts unpinned and at the head', async () => {
  const o = await advertiser(app);
  const { ad } = await launchedTree(app, o);
  const event = await app.db('events').where({ type: 'ad.created' }).whereRaw("data->>'id' = ?", [ad.id]).first();
  const at = (pin: string | null) => JSON.parse(envelope(event, pin)).data;
  assert.ok('external_accounts' in at(null) && !('social_accounts' in at(null)), 'unpinned');
  assert.ok('social_accounts' in at('2026-08-27'));
  assert.equal(at('2026-08-27').headlines, ['Half price']);
  assert.ok('external_accounts' in at('2026-09-06'));
  assert.equal(at('2026-09-06').headlines, [{ text: 'Half price' }]);
});

t('budget_optimization ad_group: each group spends its own budget; the reach per hour caps impressions and spend', async () => {
  const o = await advertiser(app, 1_000_000);
  const c = (await app.request('POST', '/ad_campaigns', { token: o.key, body: { account_id: o.accountId, title: 'Reach', objective: 'awareness', platform: 'meta', budget_amount: 1000, budget_optimization: 'ad_group' } })).body;
  const big = (await app.request('POST', '/ad_groups', { token: o.key, body: { ad_campaign_id: c.id, budget_amount: 240000, budget_type: 'daily' } })).body;
  const small = (await app.request('POST', '/ad_groups', { token: o.key, body: { ad_campaign_id: c.id, budget_amount: 2400, budget_type: 'daily' } })).body;
  const a = (await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: big.id } })).body;
  const b1 = (await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: small.id } })).body;
  const b2 = (await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: small.id } })).body;
  assert.is((await app.request('PATCH', `/ad_campaigns/${c.id}`, { token: o.key, body: { status: 'active' } })).status, 200);
  const start = await firstHour(app, c.id);
  await deliverDue(app.db, after(start, 2));
  const window = { stats_from: new Date(start).toISOString(), stats_to: after(start, 2).toISOString() };
  const get = async (path: string) => stats((await app.request('GET', path, { token: o.key, query: window })).body);
  // 10,000 an hour buys 25,000 impressions at CPM 400, but 1% of a broad audience is 10,000: they cost 4,000.
  assert.equal(await get(`/ads/${a.id}`), { spend: 8000, impressions: 20000, clicks: 100, results: 5000 });
  // 100 an hour over two ads: 50 each buys 125 impressions; no click at 0.5%; a quarter of them reached.
  for (const ad of [b1, b2]) assert.equal(await get(`/ads/${ad.id}`), { spend: 100, impressions: 250, clicks: 0, results: 62 });
  assert.equal(await get(`/ad_campaigns/${c.id}`), { spend: 8200, impressions: 20500, clicks: 100, results: 5124 });
  const charges = await app.db('ad_charges').where({ ad_campaign_id: c.id }).orderBy('hour').pluck('amount');
  assert.equal(charges.map(Number), [4100, 4100]);
});

t('an included audience caps the reach: 1% of its size an hour', async () => {
  const o = await advertiser(app, 1_000_000);
  const aud = await audience(app, o.accountId, 50_000);
  const { campaign, group, ad } = await launchedTree(app, o);
  await app.request('PATCH', `/ad_groups/${group.id}`, { token: o.key, body: { audiences: { include: [aud] } } });
  const start = await firstHour(app, campaign.id);
  await deliverDue(app.db, after(start, 1));
  // 1,250 impressions bought, 500 reachable: they cost floor(500 x 800 / 1000) = 400; 1.5% click.
  const res = await app.request('GET', `/ads/${ad.id}`, { token: o.key, query: { stats_from: new Date(start).toISOString(), stats_to: after(start, 1).toISOString() } });
  assert.equal(stats(res.body), { spend: 400, impressions: 500, clicks: 7, results: 7 });
});

t.run();
