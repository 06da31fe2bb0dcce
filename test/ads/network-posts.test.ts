// The sandbox ad network's own posts: an ad without a chosen post is served by a post the network made from its copy
// and media, stored in the ad's transaction (post_id names it), retrievable at GET /ad_posts/{id} and re-rendered when
// the ad changes; its thumbnail is the image creative's download link, answered by this server.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { startAppWithStore, type FileEnv } from '../files/file-env.js';
import { advertiser, campaignBody, created, type Owner } from './ads-fixtures.js';

const t = suite('ad network posts');
let app: TestApp;
let env: { close(): Promise<void>; env: FileEnv };
t.before(async () => { const s = await startAppWithStore(); app = s.app; env = s; });
t.after(async () => { await env.close(); });

async function file(o: Owner, filename: string): Promise<string> {
  const f = await app.request('POST', '/files', { token: o.key, body: { filename } });
  assert.is(f.status, 201, JSON.stringify(f.body));
  assert.is((await fetch(f.body.upload_url, { method: 'PUT', body: 'bytes', headers: f.body.upload_headers })).status, 200);
  return f.body.id;
}

async function group(o: Owner) {
  const c = await created(app, o, '/ad_campaigns', campaignBody(o));
  return created(app, o, '/ad_groups', { ad_campaign_id: c.id, title: 'Everyone' });
}

t('an ad without a chosen post is served by a stored network post made from its copy and media', async () => {
  const o = await advertiser(app);
  const g = await group(o);
  const image = await file(o, 'hero.png');
  const ad = await created(app, o, '/ads', { ad_group_id: g.id, primary_texts: [{ text: 'Spring is here' }], headlines: [{ text: 'Half price' }], creatives: [{ id: image }], post_source: 'instagram' });
  assert.match(ad.post_id, /^post_/);
  const post = await app.request('GET', `/ad_posts/${ad.post_id}`, { token: o.key });
  assert.is(post.status, 200, JSON.stringify(post.body));
  assert.equal([post.body.id, post.body.ad_id, post.body.caption, post.body.source, post.body.media_file_id],
    [ad.post_id, ad.id, 'Spring is here', 'instagram', image]);
  // The thumbnail is served: the image's download link, answered by this server.
  assert.match(post.body.thumbnail_url, new RegExp(`/downloads/${image}/hero\\.png`));
  const fetched = await fetch(post.body.thumbnail_url);
  assert.equal([fetched.status, await fetched.text()], [200, 'bytes']);
  assert.match(ad.post_thumbnail_url, new RegExp(`/downloads/${image}/hero\\.png`));

  // The ad changes: the network re-renders the same post.
  const video = await file(o, 'clip.mp4');
  const updated = await app.request('PATCH', `/ads/${ad.id}`, { token: o.key, body: { primary_texts: [{ text: 'Last days' }], creatives: [{ id: video }] } });
  assert.is(updated.status, 200, JSON.stringify(updated.body));
  assert.equal([updated.body.post_id, updated.body.post_thumbnail_url], [ad.post_id, null]);
  const again = (await app.request('GET', `/ad_posts/${ad.post_id}`, { token: o.key })).body;
  assert.equal([again.caption, again.media_file_id, again.thumbnail_url], ['Last days', video, null]);
});

t('copy only: the caption falls back to the headline; no media, no thumbnail; another account\'s post is a 404', async () => {
  const o = await advertiser(app);
  const g = await group(o);
  const ad = await created(app, o, '/ads', { ad_group_id: g.id, headlines: [{ text: 'Half price' }] });
  const post = (await app.request('GET', `/ad_posts/${ad.post_id}`, { token: o.key })).body;
  assert.equal([post.caption, post.source, post.media_file_id, post.thumbnail_url], ['Half price', null, null, null]);
  const other = await advertiser(app);
  assert.is((await app.request('GET', `/ad_posts/${ad.post_id}`, { token: other.key })).status, 404);
  assert.is((await app.request('GET', '/ad_posts/post_nope', { token: o.key })).status, 404);
});

t.run();
