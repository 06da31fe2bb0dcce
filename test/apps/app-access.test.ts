// Access questions about an app (GET /permissions, GET /users/{id}/access/{resource_id}): an app answers for the
// account that owns it, and its customers are the holders of any of that account's products.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeMembership } from '../memberships/fixtures.js';
import { makeApp } from './app-fixtures.js';

const t = suite('apps: access questions');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('GET /permissions on an app answers for its account; another account\'s app is 404 naming it', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const narrow = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['developer:basic:read', 'stats:read'] }] });
  const onAccount = await call('GET', '/permissions', { token: narrow.secret, query: { resource_id: o.accountId } });
  const onApp = await call('GET', '/permissions', { token: narrow.secret, query: { resource_id: a.id } });
  assert.is(onApp.status, 200, JSON.stringify(onApp.body));
  assert.equal(onApp.body, onAccount.body);
  assert.equal(onApp.body.data.filter((x: any) => x.granted).map((x: any) => x.action).sort(), ['developer:basic:read', 'stats:read']);
  const other = await makeOwner(app.db);
  const hidden = await call('GET', '/permissions', { token: other.key, query: { resource_id: a.id } });
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.message, `No such app: '${a.id}'`);
  assert.is(hidden.body.error.param, 'resource_id');
});

t('user access on an app: the owner is admin, a member of any of the account\'s products a customer, a stranger no_access', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const created = await call('POST', '/products', { token: o.key, body: { account_id: o.accountId, title: 'Course' } });
  assert.is(created.status, 201);
  const buyer = await makeUser(app.db);
  const stranger = await makeUser(app.db);
  const check = (userId: string) => call('GET', `/users/${userId}/access/${a.id}`, { token: o.key });
  assert.equal((await check(o.owner.id)).body, { has_access: true, access_level: 'admin' });
  assert.equal((await check(stranger.id)).body, { has_access: false, access_level: 'no_access' });
  await makeMembership(app, o.accountId, buyer.id, { productId: created.body.id });
  assert.equal((await check(buyer.id)).body, { has_access: true, access_level: 'customer' });
  const other = await makeOwner(app.db);
  assert.is((await call('GET', `/users/${buyer.id}/access/${a.id}`, { token: other.key })).status, 404);
});

t.run();
