// The queued retry run by the real worker.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { waitFor } from './preference-fixtures.js';

const t = suite('retry_ads_payment on the worker');
let app: TestApp;
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

t('the worker completes a queued retry', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('POST', `/accounts/${o.accountId}/retry_ads_payment`, { token: o.key });
  assert.is(res.status, 200);
  const row = await waitFor(async () => {
    const r = await app.db('ads_payment_retries').where({ id: res.body.id }).first();
    return r.status === 'completed' ? r : null;
  });
  assert.is(row.outcome, 'no_failed_campaigns');
  assert.ok(Date.parse(row.completed_at) >= Date.parse(res.body.created_at));
});

t.run();
