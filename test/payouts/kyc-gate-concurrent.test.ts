// The KYC gate under concurrency: payouts of one unverified account pass the gate one at a time (an advisory lock
// held to the request's end), and the refusal past the limit holds the funds with a write that stands after the
// rollback. That write once took a second pooled connection while holding the lock: with more concurrent payouts
// than the server's pool (5 in tests), every other connection waited on the lock and the server hung.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { payoutOwner } from './payout-fixtures.js';

const t = suite('payouts: the KYC gate under concurrency');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('twelve concurrent payouts past the limit on a pool of five: every one refused, the funds held, nothing written', async () => {
  const o = await payoutOwner(app, 20_000_000);
  const pay = (i: number) => app.request('POST', '/payouts', { token: o.key, ...(i % 2 ? { idempotencyKey: `kyc-${o.accountId}-${i}` } : {}),
    body: { account_id: o.accountId, payout_method_id: o.methodId, amount: '10000.01' } });
  const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => pay(i)));
  assert.equal(answers.map((r) => [r.status, r.body.error?.param]),
    answers.map(() => [400, 'payment_controls.undated_pending_reason']), JSON.stringify(answers.map((r) => r.body)));
  const account = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key });
  assert.is(account.body.payment_controls.undated_pending_reason, 'kyc_incomplete', 'the refusal holds the funds');
  const payouts = await app.request('GET', '/payouts', { token: o.key, query: { account_id: o.accountId } });
  assert.equal(payouts.body.data, [], 'no refused payout is written');
  // A kept refusal (an idempotency key) is replayed, and still holds nothing twice.
  const replay = await pay(1);
  assert.equal([replay.status, replay.headers.get('idempotent-replayed')], [400, 'true']);
});

t.run();
