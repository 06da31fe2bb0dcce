import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { jobsFor, eventsOf } from './preference-fixtures.js';
import { renewEconomicIntelligence } from '../../handlers/account_preferences/renew-economic-intelligence-task.js';

const t = suite('Economic Intelligence in account preferences');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const DAY = 86_400_000;
const HOUR = 3_600_000;
const pick = (o: { accountId: string; key: string }, key: string | null) =>
  app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, body: { economic_intelligence_duration_key: key } });
const read = (o: { accountId: string; key: string }) => app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
const renewJobs = async (accountId: string) =>
  (await jobsFor(app.db, 'renew_economic_intelligence')).filter((j) => j.key === `renew_economic_intelligence:${accountId}`);
const near = (iso: string, expected: number, slack = 5_000) =>
  assert.ok(Math.abs(Date.parse(iso) - expected) < slack, `${iso} is not near ${new Date(expected).toISOString()}`);

t('a days offer turns it on until now + duration, without renewal', async () => {
  const o = await makeOwner(app.db);
  const before = Date.now();
  const res = await pick(o, 'days_30');
  assert.is(res.status, 200);
  const ei = res.body.economic_intelligence;
  assert.is(ei.enabled, true);
  assert.is(ei.offer_key, 'days_30');
  assert.is(ei.auto_renew, false);
  assert.is(ei.trial_ends_at, null);
  near(ei.ends_at, before + 30 * DAY);
  assert.not.ok('economic_intelligence_duration_key' in res.body, 'the key is write-only');
  const row = await app.db('accounts').where({ id: o.accountId }).first();
  assert.is(row.economic_intelligence_ends_at, ei.ends_at, 'stored on the account');
  assert.is(row.economic_intelligence_offer_key, 'days_30');
  assert.is((await renewJobs(o.accountId)).length, 0);
  const account = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key });
  assert.is(account.body.economic_intelligence_ends_at, ei.ends_at);
  assert.equal(account.body.economic_intelligence_offers, [], 'nothing is pickable while on');
  const events = await eventsOf(app.db, o.accountId, 'account.preferences.updated');
  assert.is(events.length, 1);
  assert.is(events[0].data.economic_intelligence.offer_key, 'days_30');
});

t('an hours offer lasts that many hours', async () => {
  const o = await makeOwner(app.db);
  const before = Date.now();
  const res = await pick(o, 'hours_48');
  assert.is(res.status, 200);
  near(res.body.economic_intelligence.ends_at, before + 48 * HOUR);
});

t('it cannot be changed or turned off before ends_at', async () => {
  const o = await makeOwner(app.db);
  const on = await pick(o, 'days_30');
  const endsAt = on.body.economic_intelligence.ends_at;
  for (const key of ['days_90', 'days_30', null]) {
    const res = await pick(o, key);
    assert.is(res.status, 400, String(key));
    assert.is(res.body.error.type, 'invalid_request');
    assert.is(res.body.error.param, 'economic_intelligence_duration_key');
    assert.match(res.body.error.message, endsAt);
  }
  const after = await read(o);
  assert.is(after.body.economic_intelligence.ends_at, endsAt);
  assert.is(after.body.economic_intelligence.offer_key, 'days_30');
});

t('it turns off at ends_at and can be picked again then', async () => {
  const o = await makeOwner(app.db);
  await pick(o, 'days_30');
  const past = new Date(Date.now() - 1000).toISOString();
  await app.db('accounts').where({ id: o.accountId }).update({ economic_intelligence_ends_at: past });
  const off = await read(o);
  assert.equal(off.body.economic_intelligence, { enabled: false, ends_at: past, offer_key: 'days_30', auto_renew: false, trial_ends_at: null });
  const again = await pick(o, 'days_90');
  assert.is(again.status, 200);
  assert.is(again.body.economic_intelligence.offer_key, 'days_90');
  assert.is(again.body.economic_intelligence.enabled, true);
});

t('it cannot be turned on during a free trial, which reads as enabled', async () => {
  const o = await makeOwner(app.db);
  const trialEnd = new Date(Date.now() + 3 * DAY).toISOString();
  await app.db('accounts').where({ id: o.accountId }).update({ economic_intelligence_trial_ends_at: trialEnd });
  const during = await read(o);
  assert.equal(during.body.economic_intelligence, { enabled: true, ends_at: null, offer_key: null, auto_renew: false, trial_ends_at: trialEnd });
  const res = await pick(o, 'weekly');
  assert.is(res.status, 400);
  assert.is(res.body.error.param, 'economic_intelligence_duration_key');
  assert.match(res.body.error.message, 'free trial');
  assert.is((await renewJobs(o.accountId)).length, 0);

  await app.db('accounts').where({ id: o.accountId }).update({ economic_intelligence_trial_ends_at: new Date(Date.now() - 1000).toISOString() });
  assert.is((await pick(o, 'weekly')).status, 200, 'allowed once the trial is over');
});

t('a key that is not a pickable offer is a 400 listing the offers', async () => {
  const o = await makeOwner(app.db);
  const res = await pick(o, 'yearly');
  assert.is(res.status, 400);
  assert.is(res.body.error.param, 'economic_intelligence_duration_key');
  assert.match(res.body.error.message, 'weekly, days_30, days_90, hours_48');
});

t('null while off changes nothing', async () => {
  const o = await makeOwner(app.db);
  const res = await pick(o, null);
  assert.is(res.status, 200);
  assert.is(res.body.economic_intelligence.enabled, false);
  assert.is((await eventsOf(app.db, o.accountId, 'account.preferences.updated')).length, 0);
});

t('weekly auto-renews: a renewal job is scheduled at ends_at, keyed per account', async () => {
  const o = await makeOwner(app.db);
  const before = Date.now();
  const res = await pick(o, 'weekly');
  assert.is(res.status, 200);
  const ei = res.body.economic_intelligence;
  assert.is(ei.auto_renew, true);
  near(ei.ends_at, before + 7 * DAY);
  const jobs = await renewJobs(o.accountId);
  assert.is(jobs.length, 1);
  assert.is(new Date(jobs[0].run_at).getTime(), Date.parse(ei.ends_at));
  assert.equal(jobs[0].payload, { account_id: o.accountId });
});

t('the renewal extends ends_at by a week', async () => {
  const o = await makeOwner(app.db);
  const endsAt = Date.parse((await pick(o, 'weekly')).body.economic_intelligence.ends_at);
  await renewEconomicIntelligence(app.db, o.accountId, endsAt + 1000);
  const row = await app.db('accounts').where({ id: o.accountId }).first();
  assert.is(Date.parse(row.economic_intelligence_ends_at), endsAt + 7 * DAY);
  assert.is((await renewJobs(o.accountId)).length, 1, 'the job key keeps one pending renewal');
});

t('a renewal after an outage keeps periods back to back and ends in the future', async () => {
  const o = await makeOwner(app.db);
  const endsAt = Date.parse((await pick(o, 'weekly')).body.economic_intelligence.ends_at);
  await renewEconomicIntelligence(app.db, o.accountId, endsAt + 15 * DAY);
  const row = await app.db('accounts').where({ id: o.accountId }).first();
  assert.is(Date.parse(row.economic_intelligence_ends_at), endsAt + 21 * DAY);
});

t('null stops auto-renewal: on until ends_at, then off', async () => {
  const o = await makeOwner(app.db);
  const endsAt = (await pick(o, 'weekly')).body.economic_intelligence.ends_at;
  const stopped = await pick(o, null);
  assert.is(stopped.status, 200);
  assert.equal(stopped.body.economic_intelligence, { enabled: true, ends_at: endsAt, offer_key: 'weekly', auto_renew: false, trial_ends_at: null });
  assert.is((await eventsOf(app.db, o.accountId, 'account.preferences.updated')).length, 2);

  await renewEconomicIntelligence(app.db, o.accountId, Date.parse(endsAt) + 1000);
  const row = await app.db('accounts').where({ id: o.accountId }).first();
  assert.is(row.economic_intelligence_ends_at, endsAt, 'not renewed');
  assert.is((await renewJobs(o.accountId)).filter((j) => Date.parse(j.run_at) > Date.parse(endsAt)).length, 0);
});

t('a stopped weekly offer cannot be switched to another offer while on, but renewal can resume', async () => {
  const o = await makeOwner(app.db);
  const endsAt = (await pick(o, 'weekly')).body.economic_intelligence.ends_at;
  await pick(o, null);
  const other = await pick(o, 'days_30');
  assert.is(other.status, 400);
  assert.is(other.body.error.param, 'economic_intelligence_duration_key');
  const resumed = await pick(o, 'weekly');
  assert.is(resumed.status, 200);
  assert.equal(resumed.body.economic_intelligence, { enabled: true, ends_at: endsAt, offer_key: 'weekly', auto_renew: true, trial_ends_at: null });
  await renewEconomicIntelligence(app.db, o.accountId, Date.parse(endsAt) + 1000);
  const row = await app.db('accounts').where({ id: o.accountId }).first();
  assert.is(Date.parse(row.economic_intelligence_ends_at), Date.parse(endsAt) + 7 * DAY);
});

t('economic_intelligence_duration_key rides along with other changes in one write', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('PATCH', `/accounts/${o.accountId}/preferences`, {
    token: o.key, body: { economic_intelligence_duration_key: 'days_30', dispute_fighter_enabled: true },
  });
  assert.is(res.status, 200);
  assert.is(res.body.dispute_fighter_enabled, true);
  assert.is(res.body.economic_intelligence.offer_key, 'days_30');
  const refused = await app.request('PATCH', `/accounts/${o.accountId}/preferences`, {
    token: o.key, body: { economic_intelligence_duration_key: 'days_90', dispute_fighter_enabled: false },
  });
  assert.is(refused.status, 400);
  assert.is((await read(o)).body.dispute_fighter_enabled, true, 'the whole write is refused');
});

t.run();
