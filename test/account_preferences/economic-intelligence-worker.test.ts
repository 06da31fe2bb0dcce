// The renewal job run by the real worker: graphile-worker picks it up at run_at, as in production.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { jobsFor, waitFor } from './preference-fixtures.js';

const t = suite('renew_economic_intelligence on the worker');
let app: TestApp;
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

const DAY = 86_400_000;
const pick = (o: { accountId: string; key: string }, key: string | null) =>
  app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, body: { economic_intelligence_duration_key: key } });
const renewJobs = async (accountId: string) =>
  (await jobsFor(app.db, 'renew_economic_intelligence')).filter((j) => j.key === `renew_economic_intelligence:${accountId}`);
/** Brings the account's pending renewal forward to now, as if its run_at had arrived. */
async function runRenewalNow(accountId: string) {
  const [job] = await renewJobs(accountId);
  await app.db.raw('select graphile_worker.reschedule_jobs(array[?]::bigint[], run_at => now())', [job.id]);
  return job.id;
}

t('at ends_at a weekly offer is extended by a week and the next renewal is scheduled then', async () => {
  const o = await makeOwner(app.db);
  await pick(o, 'weekly');
  const lapsed = Date.now() - 1000;
  await app.db('accounts').where({ id: o.accountId }).update({ economic_intelligence_ends_at: new Date(lapsed).toISOString() });
  const first = await runRenewalNow(o.accountId);

  const renewed = await waitFor(async () => {
    const row = await app.db('accounts').where({ id: o.accountId }).first();
    return Date.parse(row.economic_intelligence_ends_at) > lapsed ? row : null;
  });
  assert.is(Date.parse(renewed.economic_intelligence_ends_at), lapsed + 7 * DAY);
  const next = await waitFor(async () => {
    const jobs = (await renewJobs(o.accountId)).filter((j) => j.id !== first && !j.locked_at);
    return jobs.length ? jobs : null;
  });
  assert.is(next.length, 1);
  assert.is(new Date(next[0].run_at).getTime(), lapsed + 7 * DAY);
  const res = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
  assert.is(res.body.economic_intelligence.enabled, true);
  assert.is(res.body.economic_intelligence.auto_renew, true);
});

t('a job that runs before ends_at changes nothing and waits for ends_at', async () => {
  const o = await makeOwner(app.db);
  const endsAt = (await pick(o, 'weekly')).body.economic_intelligence.ends_at;
  const first = await runRenewalNow(o.accountId);
  const next = await waitFor(async () => {
    const jobs = (await renewJobs(o.accountId)).filter((j) => j.id !== first);
    return jobs.length ? jobs : null;
  });
  assert.is(new Date(next[0].run_at).getTime(), Date.parse(endsAt));
  const row = await app.db('accounts').where({ id: o.accountId }).first();
  assert.is(row.economic_intelligence_ends_at, endsAt);
});

t('after auto-renewal is stopped the job leaves it to turn off at ends_at', async () => {
  const o = await makeOwner(app.db);
  await pick(o, 'weekly');
  await pick(o, null);
  const lapsed = new Date(Date.now() - 1000).toISOString();
  await app.db('accounts').where({ id: o.accountId }).update({ economic_intelligence_ends_at: lapsed });
  await runRenewalNow(o.accountId);
  await waitFor(async () => (await renewJobs(o.accountId)).length === 0);
  const res = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
  assert.equal(res.body.economic_intelligence, { enabled: false, ends_at: lapsed, offer_key: 'weekly', auto_renew: false, trial_ends_at: null });
});

t.run();
