import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeAccount } from '../helpers/fixtures.js';

const t = suite('GET /accounts/{id}');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('returns the account with every field, for its own API key', async () => {
  const o = await makeOwner(app.db, { title: 'Acme Tools', country: 'US' });
  const res = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key });
  assert.is(res.status, 200);
  assert.is(res.body.id, o.accountId);
  assert.is(res.body.title, 'Acme Tools');
  assert.equal(res.body.balance.pending, { amount: 0, currency: 'usd', decimals: 2, display_decimals: 2 });
  assert.equal(res.body.payment_controls, { undated_pending_reason: null });
  assert.is(res.body.rewards.length, 3);
  assert.ok(res.headers.get('request-id')?.startsWith('req_'));
});

t('another account is a 404, never leaked', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const res = await app.request('GET', `/accounts/${b.accountId}`, { token: a.key });
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
});

t('a connected account is visible to its parent key', async () => {
  const p = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId, title: 'Child' });
  const res = await app.request('GET', `/accounts/${child.id}`, { token: p.key });
  assert.is(res.status, 200);
  assert.is(res.body.parent_account.id, p.accountId);
});

t('no credentials is a 401 with the error envelope', async () => {
  const res = await app.request('GET', '/accounts/biz_x');
  assert.is(res.status, 401);
  assert.is(res.body.error.type, 'authentication_required');
  assert.ok(res.body.error.request_id);
});

t.run();
