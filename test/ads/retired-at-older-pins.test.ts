// GET /ad_reports (retired 2026-08-21) and POST /ad_campaigns/{id}/retry_payment (retired 2026-08-25): 410 from
// their retirement, working at older pins: the report from the delivery rollups, the retry of one campaign's failed
// charges through the account retry's code.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { deliverDue } from '../../handlers/ads/deliver.js';
import { headVersion } from '../../runtime/versions.js';
import { advertiser, after, firstHour, launchedTree } from './ads-fixtures.js';

const OLD = '2026-07-22';
const t = suite('retired ad operations at older pins');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('POST /ad_campaigns/{id}/retry_payment before 2026-08-25 retries that campaign\'s failed charges now', async () => {
  const o = await advertiser(app, 500);
  const { campaign } = await launchedTree(app, o);
  const start = await firstHour(app, campaign.id);
  await deliverDue(app.db, after(start, 1));
  assert.is((await app.db('ad_campaigns').where({ id: campaign.id }).first()).status, 'payment_failed');
  const retry = (version = OLD, token = o.key) => app.request('POST', `/ad_campaigns/${campaign.id}/retry_payment`, { token, version });

  const stillFailing = await retry();
  assert.is(stillFailing.status, 200, JSON.stringify(stillFailing.body));
  assert.equal([stillFailing.body.id, stillFailing.body.status], [campaign.id, 'payment_failed']);
  assert.match(stillFailing.body.issues[0].message, /insufficient_funds/);
  assert.is((await app.db('ad_charges').where({ ad_campaign_id: campaign.id }).first()).attempts, 2);

  const other = await advertiser(app);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  assert.is((await retry(OLD, other.key)).status, 404);
  assert.is((await retry(OLD, viewer.secret)).status, 403);
  assert.is((await app.request('POST', '/ad_campaigns/adcamp_nothing/retry_payment', { token: o.key, version: OLD })).status, 404);
  for (const version of ['2026-08-25', headVersion()]) {
    const gone = await retry(version);
    assert.equal([gone.status, gone.body.error.type], [410, 'gone']);
    assert.match(gone.body.error.message, /use \/api\/v1\/accounts\/\{id\}\/retry_ads_payment/);
  }
  assert.is((await app.db('ad_charges').where({ ad_campaign_id: campaign.id }).first()).attempts, 2, 'refused calls charge nothing');

  await fundBalance(app.db, o.accountId, 5000);
  const paid = await retry('2026-08-14');
  assert.is(paid.status, 200, JSON.stringify(paid.body));
  assert.equal([paid.body.status, paid.body.delivery_status, paid.body.issues], ['active', 'active', []]);
  const charge = await app.db('ad_charges').where({ ad_campaign_id: campaign.id }).first();
  assert.equal([charge.status, charge.attempts, charge.method_id], ['succeeded', 3, o.ledger]);
  const types = await app.db('events').whereRaw("data->>'id' = ?", [campaign.id]).orderBy('created_at').pluck('type');
  assert.is(types.at(-1), 'ad_campaign.delivery_changed');
  const nothing = await retry();
  assert.equal([nothing.status, nothing.body.error.type], [400, 'invalid_state']);
});

t('GET /ad_reports before 2026-08-21: summary, buckets and breakdown from the delivery rollups', async () => {
  const o = await advertiser(app, 1_000_000);
  const { campaign, group, ad } = await launchedTree(app, o);
  const second = await launchedTree(app, o, { title: 'Second' });
  const start = await firstHour(app, campaign.id);
  await deliverDue(app.db, after(start, 30));
  const report = (query: Record<string, unknown>, version = OLD, token = o.key) =>
    app.request('GET', '/ad_reports', { token, version, query: { company_id: o.accountId, ...query } });
  // both campaigns deliver 1,000 an hour from their first hour: 1,250 impressions and 18 clicks (each a result)
  const secondStart = await firstHour(app, second.campaign.id);
  const hoursOf = (s: number) => Math.max(0, Math.min(30, (start + 30 * 3_600_000 - s) / 3_600_000));
  const hours = hoursOf(start) + hoursOf(secondStart);

  const all = await report({ from: new Date(start).toISOString(), to: after(start, 29).toISOString() });
  assert.is(all.status, 200, JSON.stringify(all.body));
  assert.equal(all.body.summary, {
    impressions: 1250 * hours, clicks: 18 * hours, result_count: 18 * hours, spend: 1000 * hours, spend_currency: 'usd',
    click_through_rate: 0.0144, cost_per_click: 55, cost_per_mille: 800, cost_per_result: 55, return_on_ad_spend: 0,
  });
  assert.equal([all.body.granularity, all.body.breakdown], [null, null]);

  const scoped = await report({ from: new Date(start).toISOString(), to: after(start, 3).toISOString(), ad_campaign_ids: [campaign.id], granularity: 'hourly', breakdown: 'ad' });
  assert.is(scoped.status, 200, JSON.stringify(scoped.body));
  assert.equal(scoped.body.granularity.map((b: any) => [b.bucket_start, b.stat_hour, b.spend, b.granularity]),
    [0, 1, 2, 3].map((h) => [after(start, h).toISOString(), after(start, h).getUTCHours(), 1000, 'hourly']));
  assert.equal(scoped.body.breakdown.map((b: any) => [b.id, b.level, b.name, b.summary.spend]), [[ad.id, 'ad', 'Ad', 4000]]);
  assert.is(scoped.body.summary.spend, 4000);

  const daily = await report({ from: new Date(start).toISOString(), to: after(start, 29).toISOString(), ad_group_ids: [group.id], granularity: 'daily' });
  assert.equal([daily.body.summary.spend, daily.body.granularity.reduce((s: number, b: any) => s + b.spend, 0)], [30000, 30000]);
  assert.ok(daily.body.granularity.every((b: any) => b.stat_hour === null && b.bucket_start.endsWith('T00:00:00.000Z')));
  const monthly = await report({ from: new Date(start).toISOString(), to: after(start, 29).toISOString(), granularity: 'monthly', breakdown: 'campaign' });
  assert.is(monthly.body.granularity.reduce((s: number, b: any) => s + b.spend, 0), 1000 * hours);
  assert.equal(monthly.body.breakdown.map((b: any) => b.id).sort(), [campaign.id, second.campaign.id].sort());

  const other = await advertiser(app);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  const window = { from: new Date(start).toISOString(), to: after(start, 2).toISOString() };
  assert.is((await report(window, OLD, other.key)).status, 404);
  assert.is((await report(window, OLD, viewer.secret)).status, 403);
  const refusals: [Record<string, unknown>, number, string][] = [
    [{ currency: 'eur' }, 400, 'currency'],
    [{ ad_campaign_ids: [campaign.id], ad_ids: [ad.id] }, 400, 'ad_ids'],
    [{ to: after(start, -2).toISOString() }, 400, 'to'],
    [{ from: '2020-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z', granularity: 'hourly' }, 400, 'from'],
  ];
  for (const [change, status, param] of refusals) {
    const res = await report({ ...window, ...change });
    assert.equal([res.status, res.body.error?.param], [status, param], JSON.stringify(change));
  }
  const foreignCampaign = (await launchedTree(app, other)).campaign;
  const foreign = await report({ ...window, ad_campaign_ids: [foreignCampaign.id] });
  assert.equal([foreign.status, foreign.body.error.param], [404, 'ad_campaign_ids']);
  for (const version of ['2026-08-21', headVersion()]) {
    const gone = await report(window, version);
    assert.equal([gone.status, gone.body.error.type], [410, 'gone']);
    assert.match(gone.body.error.message, /use \/api\/v1\/stats\/ad_delivery/);
  }
});

t.run();
