// /audiences over HTTP: customer lists (the account's joined members), engagement audiences (rules over the
// account's connected external accounts and their posts on the sandbox network), lookalikes (a documented multiple
// of another audience), every source rule's 4xx naming the field, list/retrieve/update/delete, and 404s across
// accounts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { VERSION } from '../payments/payment-fixtures.js';
import { ensureMember } from '../../handlers/members/member-service.js';
import { makeMembership } from '../memberships/fixtures.js';
import { postEngagements } from '../../sandbox/social_network/index.js';
import { connectedAccount } from '../external_accounts/external-account-fixtures.js';
import { buildQueued } from './audience-fixtures.js';

const t = suite('audiences');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const create = (token: string, body: Record<string, unknown>, version = VERSION) =>
  app.request('POST', '/audiences', { token, version, body });
const get = (token: string, path: string, query?: Record<string, string | number | boolean>, version = VERSION) =>
  app.request('GET', path, { token, version, query });

async function postsOf(externalAccountId: string) {
  return app.db('external_account_posts').where({ external_account_id: externalAccountId })
    .select('id', 'platform_post_id', 'media_type', 'published_at');
}

t('a customer list is the account\'s joined members; a lookalike is 100 x ratio times its source', async () => {
  const o = await makeOwner(app.db);
  for (let i = 0; i < 3; i++) await ensureMember(app.db, o.accountId, (await makeUser(app.db)).id);
  // A member whose only membership was canceled now has no access left, and so has left.
  const goneMembership = await makeMembership(app, o.accountId, (await makeUser(app.db)).id);
  const canceled = await app.request('POST', `/memberships/${goneMembership.id}/cancel`, { token: o.key, version: VERSION });
  assert.is(canceled.status, 200, JSON.stringify(canceled.body));
  const gone = await app.db('members').where({ id: goneMembership.memberId }).first('id', 'status');
  assert.is(gone.status, 'left');
  const other = await makeOwner(app.db);
  await ensureMember(app.db, other.accountId, (await makeUser(app.db)).id);

  const list = await create(o.key, { account_id: o.accountId, name: 'Customers', source_type: 'customer_list' });
  assert.is(list.status, 201, JSON.stringify(list.body));
  assert.match(list.body.id, /^adaud_/);
  assert.equal([list.body.account_id, list.body.name, list.body.source_type, list.body.size, list.body.engagement,
    list.body.source_audience_id, list.body.lookalike_ratio], [o.accountId, 'Customers', 'customer_list', 3, null, null, null]);
  await buildQueued(app, list.body.id);

  const like = await create(o.key, { account_id: o.accountId, name: 'Like them', source_type: 'lookalike',
    source_audience_id: list.body.id, lookalike_ratio: 3 });
  assert.is(like.status, 201, JSON.stringify(like.body));
  assert.equal([like.body.size, like.body.source_audience_id, like.body.lookalike_ratio], [900, list.body.id, 3]);
  const defaultRatio = await create(o.key, { account_id: o.accountId, name: 'Like 1', source_type: 'lookalike', source_audience_id: list.body.id });
  assert.equal([defaultRatio.body.lookalike_ratio, defaultRatio.body.size], [1, 300]);

  const ofLookalike = await create(o.key, { account_id: o.accountId, name: 'x', source_type: 'lookalike', source_audience_id: like.body.id });
  assert.equal([ofLookalike.status, ofLookalike.body.error.param], [400, 'source_audience_id']);
  const noSource = await create(o.key, { account_id: o.accountId, name: 'x', source_type: 'lookalike' });
  assert.equal([noSource.status, noSource.body.error.param], [400, 'source_audience_id']);
  const foreignSource = (await create(other.key, { account_id: other.accountId, name: 'theirs', source_type: 'customer_list' })).body;
  const foreign = await create(o.key, { account_id: o.accountId, name: 'x', source_type: 'lookalike', source_audience_id: foreignSource.id });
  assert.equal([foreign.status, foreign.body.error.type, foreign.body.error.param], [404, 'not_found', 'source_audience_id']);
  const badRatio = await create(o.key, { account_id: o.accountId, name: 'x', source_type: 'lookalike', source_audience_id: list.body.id, lookalike_ratio: 11 });
  assert.equal([badRatio.status, badRatio.body.error.param], [400, 'lookalike_ratio']);
});

t('an engagement audience: rules over connected external accounts, sized from the network\'s post engagement', async () => {
  const o = await makeOwner(app.db);
  const page = await connectedAccount(app, o.key, o.accountId, { platform: 'facebook', username: 'eng_page' });
  const gram = await connectedAccount(app, o.key, o.accountId, { platform: 'instagram', username: 'eng_gram' });
  const pagePosts = await postsOf(page.id);
  const gramPosts = await postsOf(gram.id);
  // Posts n days old: a retention window of 2 days reaches those published 1 and 2 days ago.
  const withinDays = (posts: any[], days: number) =>
    posts.filter((p) => Date.parse(p.published_at) >= Date.now() - days * 86_400_000);
  const sum = (posts: any[]) => posts.reduce((s, p) => s + postEngagements(p.platform_post_id), 0);
  // A video post to count, published on the network now.
  const video = (await app.request('POST', `/sandbox/external_accounts/${gram.id}/posts`, { token: o.key, version: VERSION,
    body: { caption: 'clip', video: true } })).body;

  const res = await create(o.key, { account_id: o.accountId, name: 'Engaged', source_type: 'engagement', engagement: { rules: [
    { source: 'pages', external_account_id: page.id, retention_days: 2 },
    { source: 'lead_forms', external_account_id: page.id },
    { source: 'videos', external_account_id: gram.id, post_ids: [video.id] },
    { source: 'social_profiles', external_account_id: gram.id, retention_days: 365 },
  ] } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const allGram = [...gramPosts, { platform_post_id: video.platform_post_id }];
  const expected = sum(withinDays(pagePosts, 2)) + Math.floor(sum(pagePosts) / 10) + postEngagements(video.platform_post_id)
    + sum(allGram);
  assert.is(res.body.size, expected);
  assert.equal(res.body.engagement.rules, [
    { source: 'pages', external_account_id: page.id, post_ids: null, retention_days: 2 },
    { source: 'lead_forms', external_account_id: page.id, post_ids: null, retention_days: 30 },
    { source: 'videos', external_account_id: gram.id, post_ids: [video.id], retention_days: 30 },
    { source: 'social_profiles', external_account_id: gram.id, post_ids: null, retention_days: 365 },
  ]);
  // Every video post when post_ids is absent.
  const videos = await create(o.key, { account_id: o.accountId, name: 'Viewers', source_type: 'engagement',
    engagement: { rules: [{ source: 'videos', external_account_id: gram.id, retention_days: 365 }] } });
  assert.is(videos.body.size, sum([...gramPosts.filter((p) => p.media_type === 'video'), { platform_post_id: video.platform_post_id }]));
  // A lookalike of an engagement audience, once built.
  await buildQueued(app, res.body.id);
  const like = await create(o.key, { account_id: o.accountId, name: 'Like engaged', source_type: 'lookalike', source_audience_id: res.body.id, lookalike_ratio: 2 });
  assert.is(like.body.size, expected * 200);
});

t('a bad engagement source is a 4xx naming the field and writes nothing', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const page = await connectedAccount(app, o.key, o.accountId, { platform: 'facebook' });
  const gram = await connectedAccount(app, o.key, o.accountId, { platform: 'instagram' });
  const theirs = await connectedAccount(app, other.key, other.accountId, { platform: 'facebook' });
  const pending = (await app.request('POST', '/external_accounts', { token: o.key, version: VERSION,
    body: { account_id: o.accountId, platform: 'x', username: 'still_connecting' } })).body;
  const deleted = await connectedAccount(app, o.key, o.accountId, { platform: 'tiktok' });
  await app.request('DELETE', `/external_accounts/${deleted.id}`, { token: o.key, version: VERSION });
  const image = (await app.request('POST', `/sandbox/external_accounts/${page.id}/posts`, { token: o.key, version: VERSION, body: { caption: 'pic' } })).body;
  const gramVideo = (await app.request('POST', `/sandbox/external_accounts/${gram.id}/posts`, { token: o.key, version: VERSION, body: { caption: 'v', video: true } })).body;

  const rule = (r: Record<string, unknown>) => ({ account_id: o.accountId, name: 'x', source_type: 'engagement', engagement: { rules: [r] } });
  const before = (await app.db('audiences').count({ n: '*' }))[0]!.n;
  const cases: [Record<string, unknown>, number, string][] = [
    [rule({ source: 'pages', external_account_id: theirs.id }), 404, 'engagement.rules.0.external_account_id'],
    [rule({ source: 'pages', external_account_id: 'sacc_nope' }), 404, 'engagement.rules.0.external_account_id'],
    [rule({ source: 'social_profiles', external_account_id: deleted.id }), 404, 'engagement.rules.0.external_account_id'],
    [rule({ source: 'social_profiles', external_account_id: pending.id }), 400, 'engagement.rules.0.external_account_id'],
    [rule({ source: 'pages', external_account_id: gram.id }), 400, 'engagement.rules.0.source'],
    [rule({ source: 'social_profiles', external_account_id: page.id }), 400, 'engagement.rules.0.source'],
    [rule({ source: 'lead_forms', external_account_id: gram.id }), 400, 'engagement.rules.0.source'],
    [rule({ source: 'pages', external_account_id: page.id, post_ids: [image.id] }), 400, 'engagement.rules.0.post_ids'],
    [rule({ source: 'videos', external_account_id: page.id, post_ids: [image.id] }), 400, 'engagement.rules.0.post_ids'],
    [rule({ source: 'videos', external_account_id: page.id, post_ids: [gramVideo.id] }), 400, 'engagement.rules.0.post_ids'],
    [rule({ source: 'videos', external_account_id: page.id, retention_days: 0 }), 400, 'engagement.rules.0.retention_days'],
    [rule({ source: 'gossip', external_account_id: page.id }), 400, 'engagement.rules.0.source'],
    [rule({ source: 'pages', external_account_id: 'adaud_x' }), 400, 'engagement.rules.0.external_account_id'],
    [{ account_id: o.accountId, name: 'x', source_type: 'engagement', engagement: { rules: [] } }, 400, 'engagement.rules'],
    [{ account_id: o.accountId, name: 'x', source_type: 'engagement' }, 400, 'engagement'],
    [{ account_id: o.accountId, name: 'x', source_type: 'customer_list', engagement: { rules: [] } }, 400, 'engagement'],
    [{ account_id: o.accountId, name: 'x', source_type: 'customer_list', lookalike_ratio: 2 }, 400, 'lookalike_ratio'],
    [{ account_id: o.accountId, name: 'x', source_type: 'engagement', source_audience_id: 'adaud_x', engagement: { rules: [{ source: 'pages', external_account_id: page.id }] } }, 400, 'source_audience_id'],
    [{ account_id: o.accountId, name: 'x', source_type: 'website' }, 400, 'source_type'],
    [{ account_id: o.accountId, source_type: 'customer_list' }, 400, 'name'],
  ];
  for (const [body, status, param] of cases) {
    const res = await create(o.key, body);
    assert.is(res.status, status, `${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`);
    assert.is(res.body.error.param, param, JSON.stringify(res.body));
  }
  assert.is((await app.db('audiences').count({ n: '*' }))[0]!.n, before);
});

t('list, filters, retrieve, rename, delete; another account gets 404s; scopes are checked', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const created = (await create(o.key, { account_id: o.accountId, name: 'A', source_type: 'customer_list' })).body;
  await buildQueued(app, created.id);
  const a = (await get(o.key, `/audiences/${created.id}`)).body;
  const b = (await create(o.key, { account_id: o.accountId, name: 'B', source_type: 'lookalike', source_audience_id: a.id })).body;
  const listed = await get(o.key, '/audiences', { account_id: o.accountId });
  assert.equal(listed.body.data.map((x: any) => x.id), [b.id, a.id]);
  assert.equal((await get(o.key, '/audiences', { account_id: o.accountId, source_type: 'lookalike' })).body.data.map((x: any) => x.id), [b.id]);
  assert.equal((await get(o.key, '/audiences', { source_audience_id: a.id })).body.data.map((x: any) => x.id), [b.id]);
  assert.equal((await get(o.key, `/audiences/${a.id}`)).body, a);

  const renamed = await app.request('PATCH', `/audiences/${a.id}`, { token: o.key, version: VERSION, body: { name: 'Renamed' } });
  assert.equal([renamed.status, renamed.body.name, renamed.body.size], [200, 'Renamed', a.size]);
  const sizeRefused = await app.request('PATCH', `/audiences/${a.id}`, { token: o.key, version: VERSION, body: { size: 5 } });
  assert.equal([sizeRefused.status, sizeRefused.body.error.param], [400, 'size']);

  for (const [method, path, body] of [['GET', `/audiences/${a.id}`], ['PATCH', `/audiences/${a.id}`, { name: 'mine' }],
    ['DELETE', `/audiences/${a.id}`]] as const) {
    assert.is((await app.request(method, path, { token: other.key, version: VERSION, body })).status, 404, `${method} ${path}`);
  }
  assert.equal((await get(other.key, '/audiences')).body.data, []);
  assert.is((await get(other.key, '/audiences', { account_id: o.accountId })).status, 404);
  assert.is((await create(other.key, { account_id: o.accountId, name: 'x', source_type: 'customer_list' })).status, 404);
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  assert.is((await get(viewer.secret, `/audiences/${a.id}`)).status, 403);
  assert.is((await create(viewer.secret, { account_id: o.accountId, name: 'x', source_type: 'customer_list' })).status, 403);

  const del = await app.request('DELETE', `/audiences/${a.id}`, { token: o.key, version: VERSION });
  assert.equal([del.status, del.body], [200, { id: a.id, deleted: true }]);
  assert.is((await get(o.key, `/audiences/${a.id}`)).status, 404);
  // Its lookalike keeps its definition; a new lookalike of it is refused.
  assert.equal((await get(o.key, `/audiences/${b.id}`)).body.source_audience_id, a.id);
  const ofDeleted = await create(o.key, { account_id: o.accountId, name: 'x', source_type: 'lookalike', source_audience_id: a.id });
  assert.equal([ofDeleted.status, ofDeleted.body.error.param], [404, 'source_audience_id']);
});

t.run();
