import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeKey, makeAccount } from '../helpers/fixtures.js';
import { jobsFor } from './preference-fixtures.js';
import { runAdsPaymentRetry } from '../../handlers/ads/retry-ads-payment.js';

const t = suite('POST /accounts/{id}/retry_ads_payment');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const retry = (accountId: string, token: string) => app.request('POST', `/accounts/${accountId}/retry_ads_payment`, { token });
const retryJobs = async (accountId: string) =>
  (await jobsFor(app.db, 'retry_ads_payment')).filter((j) => j.key === `retry_ads_payment:${accountId}`);

t('queues one retry for the account and a job to run it', async () => {
  const o = await makeOwner(app.db);
  const res = await retry(o.accountId, o.key);
  assert.is(res.status, 200);
  assert.match(res.body.id, /^adretry_[A-Za-z0-9]+$/);
  assert.is(res.body.account_id, o.accountId);
  assert.is(res.body.status, 'queued');
  assert.is(res.body.outcome, null);
  assert.is(res.body.completed_at, null);
  assert.ok(Date.parse(res.body.created_at) > Date.now() - 60_000);
  assert.equal(Object.keys(res.body).sort(), ['account_id', 'completed_at', 'created_at', 'id', 'outcome', 'status']);
  const jobs = await retryJobs(o.accountId);
  assert.is(jobs.length, 1);
  assert.equal(jobs[0].payload, { retry_id: res.body.id });
});

t('calling again while one is queued returns that retry and queues nothing more', async () => {
  const o = await makeOwner(app.db);
  const first = await retry(o.accountId, o.key);
  const second = await retry(o.accountId, o.token);
  assert.is(second.status, 200);
  assert.equal(second.body, first.body);
  assert.is((await app.db('ads_payment_retries').where({ account_id: o.accountId })).length, 1);
  assert.is((await retryJobs(o.accountId)).length, 1);
});

t('concurrent calls still queue a single retry', async () => {
  const o = await makeOwner(app.db);
  const results = await Promise.all(Array.from({ length: 5 }, () => retry(o.accountId, o.key)));
  assert.ok(results.every((r) => r.status === 200));
  assert.is(new Set(results.map((r) => r.body.id)).size, 1);
  assert.is((await app.db('ads_payment_retries').where({ account_id: o.accountId })).length, 1);
});

t('the task completes the retry with no_failed_campaigns; the next call queues a new one', async () => {
  const o = await makeOwner(app.db);
  const first = await retry(o.accountId, o.key);
  await runAdsPaymentRetry(app.db, first.body.id);
  const row = await app.db('ads_payment_retries').where({ id: first.body.id }).first();
  assert.is(row.status, 'completed');
  assert.is(row.outcome, 'no_failed_campaigns');
  assert.ok(row.completed_at);
  const next = await retry(o.accountId, o.key);
  assert.is(next.status, 200);
  assert.is.not(next.body.id, first.body.id);
  assert.is(next.body.status, 'queued');
});

t('the task leaves a completed retry as it was', async () => {
  const o = await makeOwner(app.db);
  const first = await retry(o.accountId, o.key);
  await runAdsPaymentRetry(app.db, first.body.id);
  const done = await app.db('ads_payment_retries').where({ id: first.body.id }).first();
  await new Promise((r) => setTimeout(r, 5));
  await runAdsPaymentRetry(app.db, first.body.id);
  const again = await app.db('ads_payment_retries').where({ id: first.body.id }).first();
  assert.is(again.completed_at, done.completed_at);
});

t('retries are per account', async () => {
  const p = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId });
  const a = await retry(p.accountId, p.key);
  const b = await retry(child.id, p.key);
  assert.is(b.status, 200);
  assert.is(b.body.account_id, child.id);
  assert.is.not(a.body.id, b.body.id);
});

t('a key without ads:manage is a 403', async () => {
  const o = await makeOwner(app.db);
  const key = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['company:preferences:update'] }] });
  const res = await retry(o.accountId, key.secret);
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
  assert.match(res.body.error.message, 'ads:manage');
  assert.is((await app.db('ads_payment_retries').where({ account_id: o.accountId })).length, 0);
});

t('a viewer team member is a 403', async () => {
  const o = await makeOwner(app.db);
  const key = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  assert.is((await retry(o.accountId, key.secret)).status, 403);
});

t('another account is a 404 naming id', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const res = await retry(b.accountId, a.key);
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
  assert.is(res.body.error.param, 'id');
});

t('a body field is refused', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('POST', `/accounts/${o.accountId}/retry_ads_payment`, { token: o.key, body: { campaign_id: 'adcamp_1' } });
  assert.is(res.status, 400);
  assert.is(res.body.error.param, 'campaign_id');
});

t.run();
