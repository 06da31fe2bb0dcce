// GET /setup_intents and GET /setup_intents/{id}: visibility, client_secret rules, filters, pages.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeAccount, makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { newId } from '../../runtime/ids.js';
import { makeConfirmationToken } from '../memberships/fixtures.js';
import { saveSetupIntent } from '../../handlers/setup_intents/save-setup-intent.js';

const t = suite('reading setup intents');
let app: TestApp;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

async function setupFor(o: { key: string; accountId: string }, accountId = o.accountId, userId?: string) {
  const res = await call('POST', '/setup_intents', { token: o.key, body: {
    account_id: accountId, confirmation_token: await makeConfirmationToken(app, accountId), ...(userId ? { user_id: userId } : {}),
  } });
  assert.is(res.status, 201);
  return res.body;
}

t('client_secret: the payment:charge key and the buyer see it; a reader without payment:charge sees null', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const si = await setupFor(o, o.accountId, buyer.id);
  const byKey = await call('GET', `/setup_intents/${si.id}`, { token: o.key });
  assert.is(byKey.status, 200);
  assert.is(byKey.body.client_secret, si.client_secret);
  const byBuyer = await call('GET', `/setup_intents/${si.id}`, { token: buyer.token });
  assert.is(byBuyer.status, 200);
  assert.is(byBuyer.body.client_secret, si.client_secret);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  const byViewer = await call('GET', `/setup_intents/${si.id}`, { token: viewer.secret });
  assert.is(byViewer.status, 200);
  assert.is(byViewer.body.client_secret, null);
});

t('a setup not created through the API never shows its secret', async () => {
  const o = await makeOwner(app.db);
  const id = newId('seti_');
  await app.db('setup_intents').insert({ id, account_id: o.accountId, status: 'processing', client_secret: `${id}_secret_x`, created_via_api: false }); // sql-state-write: no product path writes created_via_api false today; proves a setup made outside the API never shows its secret
  const res = await call('GET', `/setup_intents/${id}`, { token: o.key });
  assert.is(res.status, 200);
  assert.is(res.body.client_secret, null);
});

t('retrieve: another account\'s, another user\'s or an unknown setup is 404; a key without payment:basic:read 403', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const si = await setupFor(o, o.accountId, buyer.id);
  for (const token of [other.key, (await makeUser(app.db)).token]) {
    const res = await call('GET', `/setup_intents/${si.id}`, { token });
    assert.is(res.status, 404);
    assert.is(res.body.error.param, 'id');
  }
  assert.is((await call('GET', '/setup_intents/seti_missing', { token: o.key })).status, 404);
  const narrow = await makeKey(app.db, { accountId: o.accountId, statements: [{ effect: 'allow', actions: ['company:basic:read'] }] });
  const denied = await call('GET', `/setup_intents/${si.id}`, { token: narrow.secret });
  assert.is(denied.status, 403);
  assert.is((await call('GET', '/setup_intents', { token: narrow.secret })).status, 403);
});

t('list: own and connected accounts, client_secret always null, buyers see their own', async () => {
  const p = await makeOwner(app.db);
  const child = await makeAccount(app.db, { parentId: p.accountId });
  const other = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const a = await setupFor(p, p.accountId, buyer.id);
  const b = await setupFor(p, child.id);
  await setupFor(other);
  const res = await call('GET', '/setup_intents', { token: p.key });
  assert.is(res.status, 200);
  assert.equal(res.body.data.map((s: any) => s.id), [b.id, a.id]);
  assert.ok(res.body.data.every((s: any) => s.client_secret === null));
  const narrowed = await call('GET', '/setup_intents', { token: p.key, query: { account_id: child.id } });
  assert.equal(narrowed.body.data.map((s: any) => s.id), [b.id]);
  const hidden = await call('GET', '/setup_intents', { token: p.key, query: { account_id: other.accountId } });
  assert.is(hidden.status, 404);
  assert.is(hidden.body.error.param, 'account_id');
  const own = await call('GET', '/setup_intents', { token: buyer.token });
  assert.equal(own.body.data.map((s: any) => s.id), [a.id]);
  assert.is(own.body.data[0].client_secret, null);
});

t('filters status, created_after, created_before; invalid status 400; pages', async () => {
  const o = await makeOwner(app.db);
  const made = [];
  for (let i = 0; i < 3; i++) made.push(await setupFor(o));
  await saveSetupIntent(app.db, made[0].id); // the queued save (the worker's task) runs for the first only
  assert.is((await call('GET', `/setup_intents/${made[0].id}`, { token: o.key })).body.status, 'succeeded');
  const list = async (query: Record<string, any>) => (await call('GET', '/setup_intents', { token: o.key, query })).body.data.map((s: any) => s.id);
  assert.equal(await list({ status: 'succeeded' }), [made[0].id]);
  assert.equal(await list({ status: 'processing' }), [made[2].id, made[1].id]);
  assert.equal(await list({ created_after: made[1].created_at }), [made[2].id]);
  assert.equal(await list({ created_before: made[1].created_at }), [made[0].id]);
  const bad = await call('GET', '/setup_intents', { token: o.key, query: { status: 'done' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'status');
  const badDate = await call('GET', '/setup_intents', { token: o.key, query: { created_after: 'soon' } });
  assert.is(badDate.status, 400);
  assert.is(badDate.body.error.param, 'created_after');
  const page = await call('GET', '/setup_intents', { token: o.key, query: { first: 2 } });
  assert.equal(page.body.data.map((s: any) => s.id), [made[2].id, made[1].id]);
  assert.is(page.body.page_info.has_next_page, true);
  const rest = await call('GET', '/setup_intents', { token: o.key, query: { first: 2, after: page.body.page_info.end_cursor } });
  assert.equal(rest.body.data.map((s: any) => s.id), [made[0].id]);
  assert.is(rest.body.page_info.has_next_page, false);
});

t.run();
