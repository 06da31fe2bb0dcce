// The sandbox compliance review (POST /sandbox/accounts/{id}/compliance_review and .../resolve): it holds the
// account's funds (payouts refused) over no other reason, is released by its own operation, emits account.updated.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { holdForKyc, payoutOwner, VERSION } from '../payouts/payout-fixtures.js';

const t = suite('sandbox compliance review');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const review = (key: string, id: string, resolve = false) =>
  app.request('POST', `/sandbox/accounts/${id}/compliance_review${resolve ? '/resolve' : ''}`, { token: key, version: VERSION });

t('a review holds the funds and refuses payouts; resolving releases them; each change emits account.updated once', async () => {
  const o = await payoutOwner(app, 50_000);
  const pay = () => app.request('POST', '/payouts', { token: o.key, version: VERSION, body: { account_id: o.accountId, payout_method_id: o.methodId, amount: '10.00' } });
  const started = await review(o.key, o.accountId);
  assert.is(started.status, 200, JSON.stringify(started.body));
  assert.is(started.body.payment_controls.undated_pending_reason, 'compliance_review');
  assert.is((await review(o.key, o.accountId)).status, 200, 'already under review: answered unchanged');
  const refused = await pay();
  assert.equal([refused.status, refused.body.error.type, refused.body.error.param], [400, 'invalid_state', 'payment_controls.undated_pending_reason']);
  assert.match(refused.body.error.message, 'blocked: compliance review');
  const resolved = await review(o.key, o.accountId, true);
  assert.is(resolved.body.payment_controls.undated_pending_reason, null);
  assert.is((await review(o.key, o.accountId, true)).status, 200, 'nothing to resolve: answered unchanged');
  assert.is((await pay()).status, 201);
  const events = await app.db('events').where({ account_id: o.accountId, type: 'account.updated' }).orderBy('created_at');
  assert.equal(events.map((e: any) => e.data.payment_controls.undated_pending_reason), ['compliance_review', null]);
});

t('another reason holding the funds: 400 naming it, and resolving a review does not release it', async () => {
  const o = await makeOwner(app.db);
  await holdForKyc(app, o);
  const res = await review(o.key, o.accountId);
  assert.equal([res.status, res.body.error.type, res.body.error.param], [400, 'invalid_state', 'payment_controls.undated_pending_reason']);
  assert.match(res.body.error.message, 'already held: kyc incomplete');
  assert.is((await review(o.key, o.accountId, true)).body.payment_controls.undated_pending_reason, 'kyc_incomplete');
});

t('scopes: a viewer key is 403; another account is 404', async () => {
  const o = await makeOwner(app.db);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  assert.is((await review(viewer.secret, o.accountId)).status, 403);
  const stranger = await makeOwner(app.db);
  assert.is((await review(stranger.key, o.accountId)).status, 404);
  assert.is((await app.db('accounts').where({ id: o.accountId }).first('undated_pending_reason')).undated_pending_reason, null);
});

t.run();
