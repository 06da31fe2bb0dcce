// /external_accounts over HTTP: connecting a handle on the sandbox network (the connect job, its deterministic
// profile and posts, a handle the network does not have), list, retrieve, update, delete, the rules and 404/403.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { VERSION } from '../payments/payment-fixtures.js';
import { connectExternalAccount } from '../../handlers/external_accounts/connect-external-account.js';
import { lookUpProfile } from '../../sandbox/social_network/index.js';
import { connectedAccount, runQueuedConnect } from './external-account-fixtures.js';

const t = suite('external accounts');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const create = (token: string, body: Record<string, unknown>, version = VERSION) =>
  app.request('POST', '/external_accounts', { token, version, body });
const get = (token: string, path: string, query?: Record<string, string | number | boolean>) =>
  app.request('GET', path, { token, version: VERSION, query });

t('connecting a handle: connecting, then the job connects it with the network profile and its posts', async () => {
  const o = await makeOwner(app.db);
  const res = await create(o.key, { account_id: o.accountId, platform: 'facebook', username: '@Sunny_Shop', scopes: ['advertise'] });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const x = res.body;
  assert.match(x.id, /^sacc_/);
  assert.equal([x.account_id, x.platform, x.username, x.status, x.external_id, x.connected_at, x.scopes, x.parent_external_account],
    [o.accountId, 'facebook', 'sunny_shop', 'connecting', null, null, ['advertise'], null]);

  await runQueuedConnect(app, x.id);
  const profile = lookUpProfile('facebook', 'sunny_shop')!;
  const connected = (await get(o.key, `/external_accounts/${x.id}`)).body;
  assert.equal([connected.status, connected.external_id, connected.verified, connected.url, connected.error],
    ['connected', profile.external_id, profile.verified, 'https://facebook.sandbox.example/sunny_shop', null]);
  assert.ok(Date.parse(connected.connected_at) > 0);
  const rows = await app.db('external_account_posts').where({ external_account_id: x.id }).orderBy('platform_post_id');
  assert.equal(rows.map((r) => [r.platform_post_id, r.media_type, r.video_id, r.caption]),
    profile.posts.map((p) => [p.platform_post_id, p.media_type, p.video_id, p.caption]));
  assert.ok(rows.length >= 2 && rows.length <= 6);

  // The job again changes nothing; the events say what happened.
  await connectExternalAccount(app.db, x.id);
  assert.is((await app.db('external_account_posts').where({ external_account_id: x.id })).length, rows.length);
  const again = (await get(o.key, `/external_accounts/${x.id}`)).body;
  assert.is(again.updated_at, connected.updated_at);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [x.id]).select('type');
  assert.equal(events.map((e) => e.type), ['external_account.connected']);
});

t('a handle the sandbox network does not have: failed with the reason, no posts', async () => {
  const o = await makeOwner(app.db);
  const x = (await create(o.key, { account_id: o.accountId, platform: 'tiktok', username: 'unknown_person' })).body;
  await runQueuedConnect(app, x.id);
  const failed = (await get(o.key, `/external_accounts/${x.id}`)).body;
  assert.equal([failed.status, failed.error, failed.connected_at, failed.external_id],
    ['failed', 'The sandbox network has no tiktok profile @unknown_person', null, null]);
  assert.is((await app.db('external_account_posts').where({ external_account_id: x.id })).length, 0);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [x.id]).select('type');
  assert.equal(events.map((e) => e.type), ['external_account.connection_failed']);
});

t('the profile is a function of platform and handle', () => {
  const a = lookUpProfile('instagram', 'brand')!;
  assert.equal(lookUpProfile('instagram', 'brand'), a);
  assert.is.not(lookUpProfile('facebook', 'brand')!.external_id, a.external_id);
  assert.is(lookUpProfile('x', 'unknownish'), null);
});

t('one live connection of a handle per account and platform; another account or platform may connect it', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const first = await create(o.key, { account_id: o.accountId, platform: 'x', username: 'twice' });
  assert.is(first.status, 201);
  const dup = await create(o.key, { account_id: o.accountId, platform: 'x', username: '@TWICE' });
  assert.equal([dup.status, dup.body.error.type, dup.body.error.param], [409, 'conflict', 'username']);
  assert.is((await create(o.key, { account_id: o.accountId, platform: 'youtube', username: 'twice' })).status, 201);
  assert.is((await create(other.key, { account_id: other.accountId, platform: 'x', username: 'twice' })).status, 201);
  // Once deleted, it may be connected again.
  assert.is((await app.request('DELETE', `/external_accounts/${first.body.id}`, { token: o.key, version: VERSION })).status, 200);
  assert.is((await create(o.key, { account_id: o.accountId, platform: 'x', username: 'twice' })).status, 201);
});

t('bad input is a 400 naming the field and writes nothing', async () => {
  const o = await makeOwner(app.db);
  const before = (await app.db('external_accounts').count({ n: '*' }))[0]!.n;
  const cases: [Record<string, unknown>, string][] = [
    [{ platform: 'myspace', username: 'a' }, 'platform'],
    [{ platform: 'x', username: 'has space' }, 'username'],
    [{ platform: 'x', username: '' }, 'username'],
    [{ platform: 'x' }, 'username'],
    [{ platform: 'x', username: 'a', scopes: ['everything'] }, 'scopes.0'],
    [{ platform: 'x', username: 'a', parent_external_account_id: 'biz_x' }, 'parent_external_account_id'],
  ];
  for (const [body, param] of cases) {
    const res = await create(o.key, { account_id: o.accountId, ...body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error.param, param, JSON.stringify(res.body));
  }
  assert.is((await app.db('external_accounts').count({ n: '*' }))[0]!.n, before);
});

t('an owning page: a facebook page of the same account, for an instagram profile only', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const page = await connectedAccount(app, o.key, o.accountId, { platform: 'facebook', username: 'the_page' });
  const ig = await create(o.key, { account_id: o.accountId, platform: 'instagram', username: 'the_gram', parent_external_account_id: page.id });
  assert.is(ig.status, 201, JSON.stringify(ig.body));
  assert.equal(ig.body.parent_external_account, { id: page.id, platform: 'facebook', username: 'the_page' });

  const notInstagram = await create(o.key, { account_id: o.accountId, platform: 'x', username: 'xx', parent_external_account_id: page.id });
  assert.equal([notInstagram.status, notInstagram.body.error.param], [400, 'parent_external_account_id']);
  const notPage = await create(o.key, { account_id: o.accountId, platform: 'instagram', username: 'ig2', parent_external_account_id: ig.body.id });
  assert.equal([notPage.status, notPage.body.error.param], [400, 'parent_external_account_id']);
  const foreignPage = await connectedAccount(app, other.key, other.accountId, { platform: 'facebook' });
  const foreign = await create(o.key, { account_id: o.accountId, platform: 'instagram', username: 'ig3', parent_external_account_id: foreignPage.id });
  assert.equal([foreign.status, foreign.body.error.type, foreign.body.error.param], [404, 'not_found', 'parent_external_account_id']);
});

t('list, filters, order; update; delete returns { id, deleted: true } and then 404', async () => {
  const o = await makeOwner(app.db);
  const a = await connectedAccount(app, o.key, o.accountId, { platform: 'facebook' });
  const b = await connectedAccount(app, o.key, o.accountId, { platform: 'instagram' });
  const c = (await create(o.key, { account_id: o.accountId, platform: 'x', username: 'unknown_c' })).body;

  const all = await get(o.key, '/external_accounts', { account_id: o.accountId });
  assert.is(all.status, 200, JSON.stringify(all.body));
  assert.equal(all.body.data.map((x: any) => x.id), [c.id, b.id, a.id]);
  assert.equal((await get(o.key, '/external_accounts', { account_id: o.accountId, platform: 'instagram' })).body.data.map((x: any) => x.id), [b.id]);
  assert.equal((await get(o.key, '/external_accounts', { account_id: o.accountId, status: 'connecting' })).body.data.map((x: any) => x.id), [c.id]);

  const upd = await app.request('PATCH', `/external_accounts/${a.id}`, { token: o.key, version: VERSION, body: { display_order: 5, scopes: ['advertise'] } });
  assert.equal([upd.status, upd.body.display_order, upd.body.scopes], [200, 5, ['advertise']]);
  await app.request('PATCH', `/external_accounts/${b.id}`, { token: o.key, version: VERSION, body: { display_order: 1 } });
  const ordered = await get(o.key, '/external_accounts', { account_id: o.accountId, order: 'display_order', direction: 'asc' });
  assert.equal(ordered.body.data.map((x: any) => x.id), [c.id, b.id, a.id]);
  const badOrder = await app.request('PATCH', `/external_accounts/${a.id}`, { token: o.key, version: VERSION, body: { display_order: -1 } });
  assert.equal([badOrder.status, badOrder.body.error.param], [400, 'display_order']);

  const del = await app.request('DELETE', `/external_accounts/${a.id}`, { token: o.key, version: VERSION });
  assert.equal([del.status, del.body], [200, { id: a.id, deleted: true }]);
  assert.is((await get(o.key, `/external_accounts/${a.id}`)).status, 404);
  assert.is((await get(o.key, `/external_accounts/${a.id}/posts`)).status, 404);
  assert.equal((await get(o.key, '/external_accounts', { account_id: o.accountId })).body.data.map((x: any) => x.id), [c.id, b.id]);
});

t('another account never sees or changes them (404); a key without the scope is a 403', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const x = await connectedAccount(app, o.key, o.accountId);
  for (const [method, path, body] of [['GET', `/external_accounts/${x.id}`], ['PATCH', `/external_accounts/${x.id}`, { display_order: 2 }],
    ['DELETE', `/external_accounts/${x.id}`], ['GET', `/external_accounts/${x.id}/posts`]] as const) {
    const res = await app.request(method, path, { token: other.key, version: VERSION, body });
    assert.is(res.status, 404, `${method} ${path}`);
  }
  assert.equal((await get(other.key, '/external_accounts')).body.data, []);
  assert.is((await get(other.key, '/external_accounts', { account_id: o.accountId })).status, 404);
  assert.is((await create(other.key, { account_id: o.accountId, platform: 'x', username: 'intruder' })).status, 404);

  const reader = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  assert.is((await get(reader.secret, `/external_accounts/${x.id}`)).status, 403);
  assert.is((await create(reader.secret, { account_id: o.accountId, platform: 'x', username: 'viewer' })).status, 403);
});

t.run();
