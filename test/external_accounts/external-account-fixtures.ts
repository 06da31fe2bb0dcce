// Connecting external accounts in tests: the request, then the queued connect_external_account job run as the
// worker runs it (and removed from the queue), so a test sees the connected account and its posts.
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { jobsOf, VERSION } from '../payments/payment-fixtures.js';
import { connectExternalAccount, CONNECT_EXTERNAL_ACCOUNT } from '../../handlers/external_accounts/connect-external-account.js';

export async function runQueuedConnect(app: TestApp, id: string): Promise<void> {
  const jobs = await jobsOf(app, CONNECT_EXTERNAL_ACCOUNT, id);
  assert.is(jobs.length, 1, 'one connect job queued');
  await connectExternalAccount(app.db, id);
  await app.db('graphile_worker._private_jobs').whereIn('id', jobs.map((j) => j.id)).delete();
}

/** A connected external account of the account (the handle's profile and posts brought in). */
export async function connectedAccount(app: TestApp, token: string, accountId: string,
  body: Record<string, unknown> = {}): Promise<any> {
  const res = await app.request('POST', '/external_accounts', {
    token, version: VERSION,
    body: { account_id: accountId, platform: 'facebook', username: `page${Math.random().toString(36).slice(2, 10)}`, ...body },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  await runQueuedConnect(app, res.body.id);
  return (await app.request('GET', `/external_accounts/${res.body.id}`, { token, version: VERSION })).body;
}
