import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { startReceiver } from '../webhooks/receiver.js';
import { makeOwner } from '../helpers/fixtures.js';
import { jobsFor, eventsOf } from './preference-fixtures.js';
import { renewEconomicIntelligence } from '../../handlers/account_preferences/renew-economic-intelligence-task.js';
import { advanceTo, available, clockedOwner, DAY, funded, HOUR } from './ei-fixtures.js';
import { postingsOf } from '../helpers/ledger.js';

const t = suite('Economic Intelligence in account preferences');
let app: TestApp;
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

const pick = (o: { accountId: string; key: string }, key: string | null) =>
  app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, body: { economic_intelligence_duration_key: key } });
const read = (o: { accountId: string; key: string }) => app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
const renewJobs = async (accountId: string) =>
  (await jobsFor(app.db, 'renew_economic_intelligence')).filter((j) => j.key.startsWith(`renew_economic_intelligence:${accountId}:`));
/** The account's Economic Intelligence charges: entries `<account>:ei:<period start>`, each balanced. */
async function charges(accountId: string) {
  const rows = (await postingsOf(app.db, accountId)).filter((p) => p.entry_id.startsWith(`${accountId}:ei:`));
  const entries = new Map<string, number>();
  for (const p of rows) entries.set(p.entry_id, (entries.get(p.entry_id) ?? 0) + Number(p.amount));
  for (const [id, sum] of entries) assert.is(sum, 0, `${id} balances`);
  return rows.filter((p) => p.bucket === 'fees').map((p) => Number(p.amount)).sort((a, b) => a - b);
}
const near = (iso: string, expected: number, slack = 5_000) =>
  assert.ok(Math.abs(Date.parse(iso) - expected) < slack, `${iso} is not near ${new Date(expected).toISOString()}`);

t('a days offer charges its price and turns it on until now + duration, without renewal', async () => {
  const o = await clockedOwner(app);
  const balance = await funded(app, o, 50_000);
  const before = o.now;
  const res = await pick(o, 'days_30');
  assert.is(res.status, 200);
  assert.is(await available(app, o.accountId), balance - 14_900, 'the price left the available balance');
  assert.equal(await charges(o.accountId), [14_900], 'one balanced entry, to fees');
  const ei = res.body.economic_intelligence;
  assert.is(ei.enabled, true);
  assert.is(ei.offer_key, 'days_30');
  assert.is(ei.auto_renew, false);
  assert.is(ei.trial_ends_at, null);
  assert.is(Date.parse(ei.ends_at), before + 30 * DAY, 'at the clock\'s time');
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
  const o = await clockedOwner(app);
  await funded(app, o, 5_000);
  const res = await pick(o, 'hours_48');
  assert.is(res.status, 200);
  assert.is(Date.parse(res.body.economic_intelligence.ends_at), o.now + 48 * HOUR);
  assert.equal(await charges(o.accountId), [1_900]);
});

t('without the funds to pay, choosing an offer is a 400 insufficient_funds and nothing changes', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('PATCH', `/accounts/${o.accountId}/preferences`, {
    token: o.key, body: { economic_intelligence_duration_key: 'days_30', dispute_fighter_enabled: true },
  });
  assert.is(res.status, 400);
  assert.is(res.body.error.type, 'insufficient_funds');
  assert.is(res.body.error.param, 'economic_intelligence_duration_key');
  const after = await read(o);
  assert.equal(after.body.economic_intelligence, { enabled: false, ends_at: null, offer_key: null, auto_renew: false, trial_ends_at: null });
  assert.is(after.body.dispute_fighter_enabled, false);
  assert.is((await postingsOf(app.db, o.accountId)).length, 0);
  assert.is((await eventsOf(app.db, o.accountId, 'account.preferences.updated')).length, 0);
  assert.is((await app.db('economic_intelligence_recommendations').where({ account_id: o.accountId })).length, 0);
});

t('it cannot be changed or turned off before ends_at', async () => {
  const o = await clockedOwner(app);
  await funded(app, o, 50_000);
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

t('it turns off at ends_at by time and can be picked again then, charged again', async () => {
  const o = await clockedOwner(app);
  await funded(app, o, 50_000);
  const endsAt = (await pick(o, 'hours_48')).body.economic_intelligence.ends_at;
  await advanceTo(app, o, Date.parse(endsAt) + 1000);
  const off = await read(o);
  assert.equal(off.body.economic_intelligence, { enabled: false, ends_at: endsAt, offer_key: 'hours_48', auto_renew: false, trial_ends_at: null });
  const again = await pick(o, 'days_90');
  assert.is(again.status, 200);
  assert.is(again.body.economic_intelligence.offer_key, 'days_90');
  assert.is(again.body.economic_intelligence.enabled, true);
  assert.equal(await charges(o.accountId), [1_900, 39_900]);
});

t('an account\'s first weekly period is a free trial: not charged, on, and nothing can be picked during it', async () => {
  const o = await makeOwner(app.db);
  const res = await pick(o, 'weekly');
  assert.is(res.status, 200, 'no funds needed');
  const ei = res.body.economic_intelligence;
  assert.equal(ei, { enabled: true, ends_at: ei.ends_at, offer_key: 'weekly', auto_renew: true, trial_ends_at: ei.ends_at });
  assert.is((await postingsOf(app.db, o.accountId)).length, 0, 'nothing charged');
  const other = await pick(o, 'days_30');
  assert.is(other.status, 400);
  assert.is(other.body.error.param, 'economic_intelligence_duration_key');
  const account = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key });
  assert.equal(account.body.economic_intelligence_offers, []);
});

t('the trial is once: its end is reached by time, and an unpaid first renewal turns it off with renewal_failed', async () => {
  const o = await clockedOwner(app);
  const receiver = await startReceiver();
  try {
    const hook = await app.request('POST', '/webhooks', {
      token: o.key, body: { account_id: o.accountId, url: receiver.url, events: ['account.economic_intelligence.renewal_failed'] },
    });
    assert.is(hook.status, 201, JSON.stringify(hook.body));
    const trialEnd = (await pick(o, 'weekly')).body.economic_intelligence.trial_ends_at;
    assert.is(Date.parse(trialEnd), o.now + 7 * DAY);
    await advanceTo(app, o, Date.parse(trialEnd) + 1000);
    const after = await read(o);
    assert.equal(after.body.economic_intelligence, { enabled: false, ends_at: trialEnd, offer_key: 'weekly', auto_renew: false, trial_ends_at: trialEnd });
    const failed = await eventsOf(app.db, o.accountId, 'account.economic_intelligence.renewal_failed');
    assert.is(failed.length, 1);
    assert.equal(failed[0].data, { account_id: o.accountId, offer_key: 'weekly', ends_at: trialEnd });
    const delivered = await until(async () => receiver.received.find((r) => r.json.type === 'account.economic_intelligence.renewal_failed'),
      'the renewal_failed webhook', { timeoutMs: 20_000, everyMs: 100 });
    assert.equal(delivered.json.data, { account_id: o.accountId, offer_key: 'weekly', ends_at: trialEnd });
    const again = await pick(o, 'weekly');
    assert.is(again.status, 400, 'no second trial: the weekly price is due now');
    assert.is(again.body.error.type, 'insufficient_funds');
  } finally {
    await receiver.close();
  }
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
  assert.is(ei.trial_ends_at, ei.ends_at, 'the first weekly period is the trial');
  const jobs = await renewJobs(o.accountId);
  assert.is(jobs.length, 1);
  assert.is(new Date(jobs[0].run_at).getTime(), Date.parse(ei.ends_at));
  assert.equal(jobs[0].payload, { account_id: o.accountId });
});

t('each weekly renewal charges the week\'s price and extends ends_at by a week', async () => {
  const o = await clockedOwner(app);
  const balance = await funded(app, o, 50_000);
  const endsAt = Date.parse((await pick(o, 'weekly')).body.economic_intelligence.ends_at);
  assert.equal(await charges(o.accountId), [], 'the trial week is free');
  await advanceTo(app, o, endsAt + 1000);
  assert.is(Date.parse((await read(o)).body.economic_intelligence.ends_at), endsAt + 7 * DAY);
  assert.equal(await charges(o.accountId), [4_900]);
  await advanceTo(app, o, endsAt + 7 * DAY + 1000);
  const ei = (await read(o)).body.economic_intelligence;
  assert.is(Date.parse(ei.ends_at), endsAt + 14 * DAY);
  assert.is(ei.enabled, true);
  assert.equal(await charges(o.accountId), [4_900, 4_900]);
  assert.is(await available(app, o.accountId), balance - 9_800);
  assert.is((await eventsOf(app.db, o.accountId, 'account.economic_intelligence.renewed')).length, 2);
});

t('a renewal that cannot be paid turns it off at the period\'s end', async () => {
  const o = await clockedOwner(app);
  const balance = await funded(app, o, 10_000);
  await pick(o, 'weekly');
  const first = Date.parse((await read(o)).body.economic_intelligence.ends_at);
  // The trial, then weeks at 49.00 until the balance cannot cover one.
  const paidWeeks = Math.floor(balance / 4_900);
  await advanceTo(app, o, first + paidWeeks * 7 * DAY + 1000);
  const ei = (await read(o)).body.economic_intelligence;
  const end = first + paidWeeks * 7 * DAY;
  assert.equal({ ...ei, ends_at: Date.parse(ei.ends_at) }, { enabled: false, ends_at: end, offer_key: 'weekly', auto_renew: false, trial_ends_at: new Date(first).toISOString() });
  assert.is((await charges(o.accountId)).length, paidWeeks);
  assert.is(await available(app, o.accountId), balance - paidWeeks * 4_900);
  const failed = await eventsOf(app.db, o.accountId, 'account.economic_intelligence.renewal_failed');
  assert.is(failed.length, 1);
  assert.is(Date.parse(failed[0].data.ends_at), end);
});

t('a renewal after an outage charges every missed period, keeps them back to back and ends in the future', async () => {
  const o = await clockedOwner(app);
  await funded(app, o, 50_000);
  const endsAt = Date.parse((await pick(o, 'weekly')).body.economic_intelligence.ends_at);
  await renewEconomicIntelligence(app.db, o.accountId, endsAt + 15 * DAY);
  const row = await app.db('accounts').where({ id: o.accountId }).first();
  assert.is(Date.parse(row.economic_intelligence_ends_at), endsAt + 21 * DAY);
  assert.equal(await charges(o.accountId), [4_900, 4_900, 4_900]);
});

t('null stops auto-renewal: on until ends_at, then off', async () => {
  const o = await makeOwner(app.db);
  const endsAt = (await pick(o, 'weekly')).body.economic_intelligence.ends_at;
  const stopped = await pick(o, null);
  assert.is(stopped.status, 200);
  assert.equal(stopped.body.economic_intelligence, { enabled: true, ends_at: endsAt, offer_key: 'weekly', auto_renew: false, trial_ends_at: endsAt });
  assert.is((await eventsOf(app.db, o.accountId, 'account.preferences.updated')).length, 2);

  await renewEconomicIntelligence(app.db, o.accountId, Date.parse(endsAt) + 1000);
  const row = await app.db('accounts').where({ id: o.accountId }).first();
  assert.is(row.economic_intelligence_ends_at, endsAt, 'not renewed');
  assert.is((await renewJobs(o.accountId)).filter((j) => Date.parse(j.run_at) > Date.parse(endsAt)).length, 0);
});

t('a stopped weekly offer cannot be switched to another offer while on, but renewal can resume', async () => {
  const o = await clockedOwner(app);
  await funded(app, o, 50_000);
  const endsAt = (await pick(o, 'weekly')).body.economic_intelligence.ends_at;
  await pick(o, null);
  const other = await pick(o, 'days_30');
  assert.is(other.status, 400);
  assert.is(other.body.error.param, 'economic_intelligence_duration_key');
  const resumed = await pick(o, 'weekly');
  assert.is(resumed.status, 200);
  assert.equal(resumed.body.economic_intelligence, { enabled: true, ends_at: endsAt, offer_key: 'weekly', auto_renew: true, trial_ends_at: endsAt });
  await advanceTo(app, o, Date.parse(endsAt) + 1000);
  assert.is(Date.parse((await read(o)).body.economic_intelligence.ends_at), Date.parse(endsAt) + 7 * DAY);
  assert.equal(await charges(o.accountId), [4_900]);
});

t('economic_intelligence_duration_key rides along with other changes in one write', async () => {
  const o = await clockedOwner(app);
  await funded(app, o, 50_000);
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
