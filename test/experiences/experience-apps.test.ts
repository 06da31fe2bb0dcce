// The official client's other experience operations over HTTP: app_id on create and as a list filter (the account's
// own app or a live one), logo as image (a ready image file of the caller), changing and removing the logo, and
// POST /experiences/{id}/duplicate (settings and product attachments copied).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type RequestOptions, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner } from '../helpers/fixtures.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';
import { makeApp, uploadArtifact } from '../apps/app-fixtures.js';
import { eventsOf } from '../account_preferences/preference-fixtures.js';

const t = suite('experiences: apps, logos, duplicates');
let app: TestApp;
let env: FileEnv;
const call = (method: string, path: string, options: RequestOptions = {}) => app.request(method, path, { version: headVersion(), ...options });
t.before(async () => { app = await startTestApp(); env = useTemporaryStore(app); });
t.after(async () => { env.restore(); await app.close(); });

type Owner = { key: string; accountId: string };
const create = (o: Owner, body: Record<string, unknown> = {}) => call('POST', '/experiences', { token: o.key, body: { account_id: o.accountId, ...body } });
async function created(o: Owner, body: Record<string, unknown> = {}) {
  const res = await create(o, body);
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
async function image(o: Owner, filename = 'logo.png') {
  const res = await call('POST', '/files', { token: o.key, body: { filename } });
  const put = await fetch(res.body.upload_url, { method: 'PUT', body: Buffer.from('\x89PNG fake bytes') as unknown as BodyInit, headers: res.body.upload_headers });
  assert.is(put.status, 200);
  return res.body.id as string;
}

t('app_id: the account\'s own app or a live one powers it; list filters by app_id; another\'s hidden app is a 404', async () => {
  const [o, other] = [await makeOwner(app.db), await makeOwner(app.db)];
  const mine = await makeApp(app, o, { name: 'Chat' });
  const live = await makeApp(app, other, { name: 'Store app' });
  assert.is((await call('PATCH', `/apps/${live.id}`, { token: other.key, body: { status: 'live' } })).status, 200);
  const hidden = await makeApp(app, other);
  const byMine = await created(o, { app_id: mine.id, name: 'Chat room' });
  assert.equal([byMine.app_id, byMine.app], [mine.id, { id: mine.id, name: 'Chat' }]);
  const byLive = await created(o, { app_id: live.id });
  assert.equal(byLive.app, { id: live.id, name: 'Store app' });
  const own = await created(o);
  assert.equal([own.app_id, own.app], [null, null]);
  const refused = await create(o, { app_id: hidden.id });
  assert.equal([refused.status, refused.body.error.param], [404, 'app_id']);
  const listed = await call('GET', '/experiences', { token: o.key, query: { account_id: o.accountId, app_id: mine.id } });
  assert.equal(listed.body.data.map((e: any) => e.id), [byMine.id]);
  assert.equal((await call('GET', '/experiences', { token: o.key, query: { account_id: o.accountId } })).body.data.length, 3);
});

t('logo: a ready image of the caller shows as image.url (downloadable); changed and removed by PATCH; others refused', async () => {
  const [o, other] = [await makeOwner(app.db), await makeOwner(app.db)];
  const logo = await image(o);
  const e = await created(o, { logo: { id: logo } });
  assert.match(e.image.url, new RegExp(`/downloads/${logo}/logo\\.png\\?`));
  const downloaded = await fetch(e.image.url);
  assert.equal([downloaded.status, await downloaded.text()], [200, '\x89PNG fake bytes']);
  const second = await image(o, 'second.png');
  const changed = await call('PATCH', `/experiences/${e.id}`, { token: o.key, body: { logo: { id: second } } });
  assert.is(changed.status, 200, JSON.stringify(changed.body));
  assert.match(changed.body.image.url, new RegExp(`/downloads/${second}/`));
  const removed = await call('PATCH', `/experiences/${e.id}`, { token: o.key, body: { logo: null } });
  assert.is(removed.body.image, null);
  const same = await call('PATCH', `/experiences/${e.id}`, { token: o.key, body: { logo: null, name: e.name } });
  assert.is(same.body.updated_at, removed.body.updated_at, 'nothing differing writes nothing');
  assert.is((await eventsOf(app.db, o.accountId, 'experience.updated')).length, 2);
  const theirs = await image(other);
  const pdf = await (async () => {
    const res = await call('POST', '/files', { token: o.key, body: { filename: 'terms.pdf' } });
    await fetch(res.body.upload_url, { method: 'PUT', body: 'pdf' as unknown as BodyInit, headers: res.body.upload_headers });
    return res.body.id as string;
  })();
  const pending = (await call('POST', '/files', { token: o.key, body: { filename: 'later.png' } })).body.id;
  for (const [id, status] of [[theirs, 400], [pdf, 400], [pending, 400]] as const) {
    const res = await create(o, { logo: { id } });
    assert.equal([res.status, res.body.error.param], [status, 'logo.id'], id);
    const patched = await call('PATCH', `/experiences/${e.id}`, { token: o.key, body: { logo: { id } } });
    assert.equal([patched.status, patched.body.error.param], [status, 'logo.id']);
  }
});

t('duplicate copies the settings and the product attachments under a new id; name overrides; another account\'s is a 404', async () => {
  const [o, other] = [await makeOwner(app.db), await makeOwner(app.db)];
  const mine = await makeApp(app, o);
  const products = [];
  for (const title of ['Course', 'Bundle']) products.push((await call('POST', '/products', { token: o.key, body: { account_id: o.accountId, title } })).body.id);
  const original = await created(o, { name: 'Lessons', app_id: mine.id, is_public: true, order: 'b2', logo: { id: await image(o) }, product_id: products[1] });
  await call('POST', `/experiences/${original.id}/attach`, { token: o.key, body: { product_id: products[0] } });
  const copy = await call('POST', `/experiences/${original.id}/duplicate`, { token: o.key, body: {} });
  assert.is(copy.status, 201, JSON.stringify(copy.body));
  assert.is.not(copy.body.id, original.id);
  assert.equal([copy.body.name, copy.body.app_id, copy.body.is_public, copy.body.order, copy.body.products.map((p: any) => p.id)],
    ['Lessons', mine.id, true, 'b2', [products[1], products[0]]]);
  assert.ok(copy.body.image.url);
  const named = await call('POST', `/experiences/${original.id}/duplicate`, { token: o.key, body: { name: 'Lessons (2)' } });
  assert.is(named.body.name, 'Lessons (2)');
  assert.is((await eventsOf(app.db, o.accountId, 'experience.created')).length, 3);
  const theirs = await call('POST', `/experiences/${original.id}/duplicate`, { token: other.key, body: {} });
  assert.is(theirs.status, 404);
});

t.run();
