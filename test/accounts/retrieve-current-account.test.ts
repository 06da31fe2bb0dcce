import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner, makeAccount, makeKey } from '../helpers/fixtures.js';

const t = suite('GET /accounts/me');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });
const req: TestApp['request'] = (method, path, options = {}) => app.request(method, path, { version: headVersion(), ...options });

t('returns the account the API key belongs to', async () => {
  const o = await makeOwner(app.db, { title: 'Me Co' });
  const res = await req('GET', '/accounts/me', { token: o.key });
  assert.is(res.status, 200);
  assert.is(res.body.id, o.accountId);
  assert.is(res.body.title, 'Me Co');
});

t('a connected account\'s own key gets the connected account, with its parent', async () => {
  const p = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId });
  const key = await makeKey(app.db, { accountId: child.id, role: 'admin' });
  const res = await req('GET', '/accounts/me', { token: key.secret });
  assert.is(res.body.id, child.id);
  assert.is(res.body.parent_account.id, p.accountId);
});

t('a user token is a 403: only API keys have a current account', async () => {
  const o = await makeOwner(app.db);
  const res = await req('GET', '/accounts/me', { token: o.token });
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
  assert.match(res.body.error.message, 'API key');
});

t('a client id is a 403; no credentials is a 401', async () => {
  const o = await makeOwner(app.db);
  const client = await req('GET', '/accounts/me', { token: o.account.client_id });
  assert.is(client.status, 403);
  const none = await req('GET', '/accounts/me');
  assert.is(none.status, 401);
});

t.run();
