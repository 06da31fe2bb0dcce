// An external account's posts (brought in on connection, published on the sandbox network), the /social_accounts
// deprecated aliases, and the older shapes: before 2026-08-28 (entry 11) the operations lived at /social_accounts
// and an owning page was parent_social_account; before 2026-08-25 (entry 30) posts had no video_id or caption.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { VERSION } from '../payments/payment-fixtures.js';
import { lookUpProfile } from '../../sandbox/social_network/index.js';
import { connectedAccount } from './external-account-fixtures.js';

const BEFORE_11 = '2026-08-25';
const BEFORE_30 = '2026-08-21';
const t = suite('external account posts and versions');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const get = (token: string, path: string, query?: Record<string, string | number | boolean>, version = VERSION) =>
  app.request('GET', path, { token, version, query });
const publish = (token: string, id: string, body: Record<string, unknown>) =>
  app.request('POST', `/sandbox/external_accounts/${id}/posts`, { token, version: VERSION, body });

t('posts: the network profile\'s, newest first in pages; post_id and media_type narrow; publishing adds one', async () => {
  const o = await makeOwner(app.db);
  const x = await connectedAccount(app, o.key, o.accountId, { platform: 'instagram', username: 'postsy' });
  const profile = lookUpProfile('instagram', 'postsy')!;
  const all = await get(o.key, `/external_accounts/${x.id}/posts`, { first: 100 });
  assert.is(all.status, 200, JSON.stringify(all.body));
  assert.equal(all.body.data.map((p: any) => p.platform_post_id).sort(), profile.posts.map((p) => p.platform_post_id).sort());
  const first = all.body.data[0];
  assert.match(first.id, /^xpost_/);
  assert.equal([first.account_id, first.external_account_id], [o.accountId, x.id]);
  const video = profile.posts.find((p) => p.media_type === 'video');
  if (video) {
    const v = all.body.data.find((p: any) => p.platform_post_id === video.platform_post_id);
    assert.equal([v.video_id, v.caption, v.media_type], [video.video_id, video.caption, 'video']);
  }

  const page1 = await get(o.key, `/external_accounts/${x.id}/posts`, { first: 1 });
  assert.equal([page1.body.data.length, page1.body.page_info.has_next_page], [1, true]);
  const page2 = await get(o.key, `/external_accounts/${x.id}/posts`, { first: 1, after: page1.body.page_info.end_cursor });
  assert.is.not(page2.body.data[0].id, page1.body.data[0].id);
  assert.equal((await get(o.key, `/external_accounts/${x.id}/posts`, { post_id: first.id })).body.data.map((p: any) => p.id), [first.id]);
  const images = (await get(o.key, `/external_accounts/${x.id}/posts`, { media_type: 'image', first: 100 })).body.data;
  assert.ok(images.every((p: any) => p.media_type === 'image' && p.video_id === null));

  // account_id, as the official client sends it: the connected account's own, or a 404.
  assert.is((await get(o.key, `/external_accounts/${x.id}/posts`, { account_id: o.accountId })).body.data.length, profile.posts.length);
  const otherAccount = await makeOwner(app.db);
  const wrong = await get(o.key, `/external_accounts/${x.id}/posts`, { account_id: otherAccount.accountId });
  assert.equal([wrong.status, wrong.body.error.type], [404, 'not_found']);

  const published = await publish(o.key, x.id, { caption: 'New drop', video: true });
  assert.is(published.status, 201, JSON.stringify(published.body));
  const n = profile.posts.length + 1;
  assert.equal([published.body.platform_post_id, published.body.video_id, published.body.caption, published.body.media_type],
    [`${profile.external_id}_${n}`, `${profile.external_id}_v${n}`, 'New drop', 'video']);
  const after = (await get(o.key, `/external_accounts/${x.id}/posts`, { first: 100 })).body.data;
  assert.is(after[0].id, published.body.id);
  assert.is(after.length, n);
});

t('publishing: only a connected account (invalid_state), a caption is required, others\' are 404', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const pending = (await app.request('POST', '/external_accounts', { token: o.key, version: VERSION,
    body: { account_id: o.accountId, platform: 'x', username: 'notyet' } })).body;
  const refused = await publish(o.key, pending.id, { caption: 'hi' });
  assert.equal([refused.status, refused.body.error.type, refused.body.error.param], [400, 'invalid_state', 'status']);
  const x = await connectedAccount(app, o.key, o.accountId);
  const noCaption = await publish(o.key, x.id, {});
  assert.equal([noCaption.status, noCaption.body.error.param], [400, 'caption']);
  assert.is((await publish(other.key, x.id, { caption: 'hi' })).status, 404);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  assert.is((await get(viewer.secret, `/external_accounts/${x.id}/posts`)).status, 403);
  assert.is((await publish(viewer.secret, x.id, { caption: 'hi' })).status, 403);
});

t('/social_accounts at the head: the same operations, with Deprecation and a successor Link', async () => {
  const o = await makeOwner(app.db);
  const created = await app.request('POST', '/social_accounts', { token: o.key, version: VERSION,
    body: { account_id: o.accountId, platform: 'facebook', username: 'aliased' } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.is(created.headers.get('deprecation'), 'true');
  assert.is(created.headers.get('link'), '</api/v1/external_accounts>; rel="successor-version"');
  const id = created.body.id;
  assert.match(id, /^sacc_/);
  const got = await get(o.key, `/social_accounts/${id}`);
  assert.equal([got.status, got.body.id, got.headers.get('deprecation')], [200, id, 'true']);
  assert.is(got.headers.get('link'), `</api/v1/external_accounts/${id}>; rel="successor-version"`);
  assert.equal((await get(o.key, '/social_accounts', { account_id: o.accountId })).body.data.map((x: any) => x.id), [id]);
  const posts = await get(o.key, `/social_accounts/${id}/posts`);
  assert.equal([posts.status, posts.headers.get('deprecation')], [200, 'true']);
  const upd = await app.request('PATCH', `/social_accounts/${id}`, { token: o.key, version: VERSION, body: { display_order: 3 } });
  assert.equal([upd.status, upd.body.display_order], [200, 3]);
  const del = await app.request('DELETE', `/social_accounts/${id}`, { token: o.key, version: VERSION });
  assert.equal([del.status, del.body, del.headers.get('deprecation')], [200, { id, deleted: true }, 'true']);
  // The current paths carry no deprecation.
  const current = await get(o.key, '/external_accounts', { account_id: o.accountId });
  assert.is(current.headers.get('deprecation'), null);
});

t(`before entry 11 (${BEFORE_11}): /social_accounts is the path, undeprecated; parent_social_account`, async () => {
  const o = await makeOwner(app.db);
  const page = await connectedAccount(app, o.key, o.accountId, { platform: 'facebook', username: 'older_page' });
  const created = await app.request('POST', '/social_accounts', { token: o.key, version: BEFORE_11,
    body: { account_id: o.accountId, platform: 'instagram', username: 'older_gram', parent_social_account_id: page.id } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.is(created.headers.get('deprecation'), null);
  assert.equal(created.body.parent_social_account, { id: page.id, platform: 'facebook', username: 'older_page' });
  assert.ok(!('parent_external_account' in created.body));
  // The head's name is refused at the older pin, and the head path is not served there.
  const headName = await app.request('POST', '/social_accounts', { token: o.key, version: BEFORE_11,
    body: { account_id: o.accountId, platform: 'instagram', username: 'older_gram2', parent_external_account_id: page.id } });
  assert.equal([headName.status, headName.body.error.param], [400, 'parent_external_account_id']);
  assert.is((await get(o.key, `/external_accounts/${page.id}`, undefined, BEFORE_11)).status, 404);
  const old = await get(o.key, `/social_accounts/${created.body.id}`, undefined, BEFORE_11);
  assert.equal([old.status, old.headers.get('deprecation'), old.body.parent_social_account.id], [200, null, page.id]);
  // Read back at the head: the same account under the current name.
  const head = await get(o.key, `/external_accounts/${created.body.id}`);
  assert.equal(head.body.parent_external_account.id, page.id);
  const posts = await get(o.key, `/social_accounts/${page.id}/posts`, undefined, BEFORE_11);
  assert.equal([posts.status, posts.headers.get('deprecation')], [200, null]);
  assert.ok('video_id' in posts.body.data[0] && 'caption' in posts.body.data[0]);
  assert.equal([posts.body.data[0].social_account_id, posts.body.data[0].external_account_id], [page.id, undefined]);
});

t(`before entry 30 (${BEFORE_30}): posts have no video_id or caption`, async () => {
  const o = await makeOwner(app.db);
  const x = await connectedAccount(app, o.key, o.accountId);
  const posts = await get(o.key, `/social_accounts/${x.id}/posts`, undefined, BEFORE_30);
  assert.is(posts.status, 200, JSON.stringify(posts.body));
  assert.ok(posts.body.data.length >= 2);
  for (const p of posts.body.data) {
    assert.ok(!('video_id' in p) && !('caption' in p), JSON.stringify(p));
    assert.equal([p.social_account_id, p.external_account_id], [x.id, undefined]);
  }
  const head = await get(o.key, `/external_accounts/${x.id}/posts`);
  assert.ok(head.body.data.every((p: any) => typeof p.caption === 'string'));
});

t.run();
