// POST /ad_groups/estimate_reach over HTTP: the documented model's numbers, audiences by form, ages in order, and
// nothing written.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { advertiser, audience } from './ads-fixtures.js';

const t = suite('estimate reach');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const estimate = (o: { key: string; accountId: string }, body: Record<string, unknown> = {}, version?: string) =>
  app.request('POST', '/ad_groups/estimate_reach', { token: o.key, version, body: { account_id: o.accountId, platform: 'meta', ...body } });

t('broad targeting: 1,000,000 people, a range of less and plus 10%', async () => {
  const o = await advertiser(app);
  const res = await estimate(o);
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body, { users_lower_bound: 900_000, users_upper_bound: 1_100_000 });
  // Older pins answer the same shape (the official client's ReachEstimate at 2026-07-20).
  assert.equal((await estimate(o, {}, '2026-07-20')).body, res.body);
});

t('age, gender, devices and languages narrow by the documented shares; automatic ignores age and gender', async () => {
  const o = await advertiser(app);
  // 1,000,000 x 24/48 ages = 500,000; x 51% female = 255,000; x 80% mobile = 204,000; en + es = 52% → 106,080.
  const narrow = await estimate(o, {
    demographics: { gender: 'female', minimum_age: 18, maximum_age: 41 }, devices: { platforms: ['mobile'] }, languages: ['en', 'es'],
  });
  assert.equal(narrow.body, { users_lower_bound: 95_472, users_upper_bound: 116_688 });
  const automatic = await estimate(o, { demographics: { automatic: true, gender: 'male', minimum_age: 60 }, devices: { platforms: ['desktop'] }, languages: ['xx'] });
  // 1,000,000 x 35% desktop x 2% for a language the table does not name = 7,000.
  assert.equal(automatic.body, { users_lower_bound: 6_300, users_upper_bound: 7_700 });
  const bothDevices = await estimate(o, { devices: { platforms: ['mobile', 'desktop'] }, languages: ['en', 'es', 'pt', 'fr', 'de', 'it', 'nl', 'sv', 'da', 'fi', 'no', 'pl', 'cs', 'tr', 'ar', 'he', 'ja', 'ko', 'zh', 'hi'] });
  // Both platforms do not narrow; the five named languages (67%) and fifteen others (2% each) make 97%.
  assert.equal(bothDevices.body, { users_lower_bound: 873_000, users_upper_bound: 1_067_000 });
  const repeated = await estimate(o, { languages: ['en', 'en'] });
  assert.equal(repeated.body, { users_lower_bound: 360_000, users_upper_bound: 440_000 }, 'a language counts once');
});

t('audiences: included sizes summed, 10% off per exclusion; under 1,000 people there is no range', async () => {
  const o = await advertiser(app);
  const a = await audience(app, o.accountId, 30_000);
  const b = await audience(app, o.accountId, 20_000);
  const x = await audience(app, o.accountId, 5);
  const res = await estimate(o, { audiences: { include: [a, b], exclude: [x] } });
  assert.equal(res.body, { users_lower_bound: 40_500, users_upper_bound: 49_500 });
  const tiny = await estimate(o, { audiences: { include: [x] } });
  assert.equal(tiny.body, { users_lower_bound: null, users_upper_bound: null });
});

t('errors: unknown or another account\'s audience, both sides, ages out of order, bad fields, scopes; nothing written', async () => {
  const o = await advertiser(app);
  const other = await advertiser(app);
  const theirs = await audience(app, other.accountId, 1000);
  const mine = await audience(app, o.accountId, 1000);
  const foreign = await estimate(o, { audiences: { include: [theirs] } });
  assert.equal([foreign.status, foreign.body.error.param], [400, 'audiences.include']);
  const both = await estimate(o, { audiences: { include: [mine], exclude: [mine] } });
  assert.equal([both.status, both.body.error.param], [400, 'audiences.exclude']);
  const ages = await estimate(o, { demographics: { minimum_age: 40, maximum_age: 30 } });
  assert.equal([ages.status, ages.body.error.param], [400, 'demographics.maximum_age']);
  const young = await estimate(o, { demographics: { minimum_age: 12 } });
  assert.equal([young.status, young.body.error.param], [400, 'demographics.minimum_age']);
  const platform = await estimate(o, { platform: 'tiktok' });
  assert.equal([platform.status, platform.body.error.param], [400, 'platform']);
  const language = await estimate(o, { languages: ['english'] });
  assert.is(language.status, 400);
  const notTheirs = await app.request('POST', '/ad_groups/estimate_reach', { token: other.key, body: { account_id: o.accountId, platform: 'meta' } });
  assert.ok([403, 404].includes(notTheirs.status), String(notTheirs.status));
  const [{ n }] = await app.db('ad_groups').where({ account_id: o.accountId }).count({ n: '*' });
  assert.is(Number(n), 0);
});

t.run();
