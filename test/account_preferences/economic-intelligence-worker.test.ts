// The renewal job run by the real worker: graphile-worker picks it up at run_at, as in production; on a sandbox
// clock, the clock's advance runs it at its instant (renewals that charge and extend are in
// economic-intelligence.test.ts, reached by advancing the clock).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { jobsFor, waitFor, eventsOf } from './preference-fixtures.js';
import { advanceTo, clockedOwner, funded } from './ei-fixtures.js';
import { postingsOf } from '../helpers/ledger.js';

const t = suite('renew_economic_intelligence on the worker');
let app: TestApp;
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

const pick = (o: { accountId: string; key: string }, key: string | null) =>
  app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, body: { economic_intelligence_duration_key: key } });
const renewJobs = async (accountId: string) =>
  (await jobsFor(app.db, 'renew_economic_intelligence')).filter((j) => j.key?.startsWith(`renew_economic_intelligence:${accountId}:`));
/** Brings the account's pending renewal forward to now, as a worker that runs a job early would. */
async function runRenewalNow(accountId: string) {
  const [job] = await renewJobs(accountId);
  await app.db.raw('select graphile_worker.reschedule_jobs(array[?]::bigint[], run_at => now())', [job.id]);
  return job.id;
}

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

t('after auto-renewal is stopped the job leaves it to turn off at ends_at, charging nothing', async () => {
  const o = await clockedOwner(app);
  await funded(app, o, 10_000);
  const before = (await postingsOf(app.db, o.accountId)).length;
  const endsAt = (await pick(o, 'weekly')).body.economic_intelligence.ends_at;
  assert.is((await pick(o, null)).status, 200);
  await advanceTo(app, o, Date.parse(endsAt) + 1000);
  const res = await app.request('GET', `/accounts/${o.accountId}/preferences`, { token: o.key });
  assert.equal(res.body.economic_intelligence, { enabled: false, ends_at: endsAt, offer_key: 'weekly', auto_renew: false, trial_ends_at: endsAt });
  assert.is((await postingsOf(app.db, o.accountId)).length, before, 'nothing charged');
  assert.is((await eventsOf(app.db, o.accountId, 'account.economic_intelligence.renewal_failed')).length, 0);
});

t.run();
