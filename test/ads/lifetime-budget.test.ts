// A lifetime budget is spread over the campaign's scheduled hours (docs/sandbox/ad-network.md): the network's model
// reads the schedule as times, which the campaign's row holds as ISO 8601 text (runtime/db.ts), so delivery hands
// them over as Dates. A lifetime-budget campaign once stopped its delivery task at its first hour.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { deliverDue } from '../../handlers/ads/deliver.js';
import { advertiser, after, firstHour, launchedTree } from './ads-fixtures.js';

const t = suite('ad delivery: a lifetime budget');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('a campaign with a lifetime budget delivers hour by hour, its budget spread over its open-ended schedule', async () => {
  const o = await advertiser(app, 1_000_000);
  const { campaign, ad } = await launchedTree(app, o, { budget_type: 'lifetime' });
  assert.is(campaign.budget_type, 'lifetime');
  const start = await firstHour(app, campaign.id);
  await deliverDue(app.db, after(start, 3));
  const hours = await app.db('ad_delivery_hours').where({ ad_id: ad.id }).orderBy('hour');
  assert.is(hours.length, 3);
  assert.ok(hours.every((h) => Number(h.spend) > 0 && Number(h.spend) < 24000), JSON.stringify(hours.map((h) => h.spend)));
});

t.run();
