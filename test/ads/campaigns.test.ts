// /ad_campaigns over HTTP: create (draft, defaults, schedule rule), retrieve and list (status filter, other
// accounts), update, launch blocked while the ads agreement awaits its signature (signed through the verification)
// and without an ads payment method, pause / unpause and their illegal moves, delete with its groups and ads,
// delivery_status as the tree changes, the retired per-campaign retry (410, entry 23).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeKey } from '../helpers/fixtures.js';
import { advertiser, campaignBody, created, launchedTree } from './ads-fixtures.js';

const t = suite('ad campaigns');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('create answers a draft with defaults; retrieve answers the same; bad input names its field and writes nothing', async () => {
  const o = await advertiser(app);
  const c = await created(app, o, '/ad_campaigns', campaignBody(o));
  assert.match(c.id, /^adcamp_/);
  assert.equal([c.status, c.delivery_status, c.issues, c.budget_type, c.budget_optimization, c.bid_type, c.spend_currency, c.special_ad_categories],
    ['draft', 'draft', [], 'daily', 'ad_campaign', 'minimum_cost', 'usd', []]);
  assert.equal([c.spend, c.impressions, c.clicks, c.results, c.return_on_ad_spend], [0, 0, 0, 0, 0]);
  const got = await app.request('GET', `/ad_campaigns/${c.id}`, { token: o.key });
  assert.equal(got.body, c);
  for (const [body, param] of [
    [campaignBody(o, { objective: 'fame' }), 'objective'],
    [campaignBody(o, { budget_amount: 50 }), 'budget_amount'],
    [campaignBody(o, { budget_amount: 10.5 }), 'budget_amount'],
    [campaignBody(o, { starts_at: '2026-12-02T00:00:00Z', ends_at: '2026-12-01T00:00:00Z' }), 'ends_at'],
    [{ ...campaignBody(o), title: undefined }, 'title'],
    [campaignBody(o, { platform: 'tiktok' }), 'platform'],
  ] as const) {
    const res = await app.request('POST', '/ad_campaigns', { token: o.key, body });
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error.param, param);
  }
  assert.is(Number((await app.db('ad_campaigns').where({ account_id: o.accountId }).count('* as n'))[0]!.n), 1);
});

t('update changes the fields sent; budget_optimization only before launch', async () => {
  const o = await advertiser(app);
  const { campaign } = await launchedTree(app, o);
  const res = await app.request('PATCH', `/ad_campaigns/${campaign.id}`, { token: o.key, body: { title: 'Summer', budget_amount: 48000, special_ad_categories: ['housing'] } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal([res.body.title, res.body.budget_amount, res.body.special_ad_categories], ['Summer', 48000, ['housing']]);
  const late = await app.request('PATCH', `/ad_campaigns/${campaign.id}`, { token: o.key, body: { budget_optimization: 'ad_group' } });
  assert.is(late.status, 400);
  assert.is(late.body.error.param, 'budget_optimization');
});

t('launch: blocked while the ads agreement is pending_signature, allowed once the verification signs it', async () => {
  const o = await advertiser(app);
  const c = await created(app, o, '/ad_campaigns', campaignBody(o));
  const v = await app.request('POST', '/verifications', { token: o.key, query: { account_id: o.accountId }, body: { purpose: 'ads_agreement' } });
  assert.ok(v.status < 300, JSON.stringify(v.body));
  const blocked = await app.request('PATCH', `/ad_campaigns/${c.id}`, { token: o.key, body: { status: 'active' } });
  assert.is(blocked.status, 400);
  assert.equal([blocked.body.error.type, blocked.body.error.param], ['invalid_state', 'ads_agreement']);
  assert.match(blocked.body.error.message, /pending_signature/);
  assert.is((await app.db('ad_campaigns').where({ id: c.id }).first()).status, 'draft', 'a refused launch writes nothing');
  const signed = await app.request('PATCH', `/verifications/${v.body.id}`, { token: o.key, body: {
    requested_information: [{ id: 'req_printed_name', value: 'Ada Lovelace' }, { id: 'req_ads_terms', value: 'accept' }] } });
  assert.is(signed.status, 200, JSON.stringify(signed.body));
  const launched = await app.request('PATCH', `/ad_campaigns/${c.id}`, { token: o.key, body: { status: 'active' } });
  assert.is(launched.status, 200, JSON.stringify(launched.body));
  assert.equal([launched.body.status, launched.body.delivery_status], ['active', 'no_ad_groups']);
});

t('launch needs an ads payment method; a second launch or a launch of a paused campaign is invalid_state', async () => {
  const o = await makeOwner(app.db);
  const c = await created(app, { ...o, ledger: '' }, '/ad_campaigns', { account_id: o.accountId, title: 'x', objective: 'sales', platform: 'meta', budget_amount: 1000 });
  const res = await app.request('PATCH', `/ad_campaigns/${c.id}`, { token: o.key, body: { status: 'active' } });
  assert.is(res.status, 400);
  assert.is(res.body.error.param, 'ads_payment_methods');
  const a = await advertiser(app);
  const { campaign } = await launchedTree(app, a);
  const paused = await app.request('POST', `/ad_campaigns/${campaign.id}/pause`, { token: a.key });
  assert.equal([paused.status, paused.body.status, paused.body.delivery_status], [200, 'paused', 'paused']);
  const relaunch = await app.request('PATCH', `/ad_campaigns/${campaign.id}`, { token: a.key, body: { status: 'active' } });
  assert.equal([relaunch.status, relaunch.body.error?.type, relaunch.body.error?.param], [400, 'invalid_state', 'status']);
});

t('pause and unpause move the campaign and emit ad_campaign.delivery_changed; illegal moves are invalid_state', async () => {
  const o = await advertiser(app);
  const { campaign } = await launchedTree(app, o);
  assert.is(campaign.delivery_status, 'active');
  const again = await app.request('POST', `/ad_campaigns/${campaign.id}/unpause`, { token: o.key });
  assert.equal([again.status, again.body.error.type, again.body.error.param], [400, 'invalid_state', 'status']);
  const paused = await app.request('POST', `/ad_campaigns/${campaign.id}/pause`, { token: o.key });
  assert.is(paused.body.delivery_status, 'paused');
  const twice = await app.request('POST', `/ad_campaigns/${campaign.id}/pause`, { token: o.key });
  assert.is(twice.status, 400);
  const resumed = await app.request('POST', `/ad_campaigns/${campaign.id}/unpause`, { token: o.key });
  assert.equal([resumed.status, resumed.body.status, resumed.body.delivery_status], [200, 'active', 'active']);
  const events = await app.db('events').where({ type: 'ad_campaign.delivery_changed' }).whereRaw("data->>'id' = ?", [campaign.id]).orderBy('created_at');
  assert.equal(events.map((e) => e.data.delivery_status), ['active', 'paused', 'active']);
});

t('delivery_status follows the tree: no ad groups, no ads, groups off, active; scheduled before starts_at', async () => {
  const o = await advertiser(app);
  const { campaign, group, ad } = await launchedTree(app, o);
  const status = async () => (await app.request('GET', `/ad_campaigns/${campaign.id}`, { token: o.key })).body.delivery_status;
  await app.request('POST', `/ads/${ad.id}/pause`, { token: o.key });
  assert.is(await status(), 'no_ads');
  await app.request('POST', `/ads/${ad.id}/unpause`, { token: o.key });
  await app.request('POST', `/ad_groups/${group.id}/pause`, { token: o.key });
  assert.is(await status(), 'ad_groups_off');
  const g = await app.request('GET', `/ad_groups/${group.id}`, { token: o.key });
  assert.is(g.body.delivery_status, 'paused');
  const a = await app.request('GET', `/ads/${ad.id}`, { token: o.key });
  assert.is(a.body.delivery_status, 'ad_group_paused');
  await app.request('POST', `/ad_groups/${group.id}/unpause`, { token: o.key });
  assert.is(await status(), 'active');
  await app.request('PATCH', `/ad_campaigns/${campaign.id}`, { token: o.key, body: { starts_at: '2099-01-01T00:00:00Z' } });
  assert.is(await status(), 'scheduled');
});

t('list: newest first, status filter, every visible account without account_id; another account is 404', async () => {
  const o = await advertiser(app);
  const other = await advertiser(app);
  const first = await created(app, o, '/ad_campaigns', campaignBody(o));
  const { campaign: second } = await launchedTree(app, o);
  await created(app, other, '/ad_campaigns', campaignBody(other));
  const all = await app.request('GET', '/ad_campaigns', { token: o.key, query: { account_id: o.accountId } });
  assert.equal(all.body.data.map((c: any) => c.id), [second.id, first.id]);
  const drafts = await app.request('GET', '/ad_campaigns', { token: o.key, query: { account_id: o.accountId, status: 'draft' } });
  assert.equal(drafts.body.data.map((c: any) => c.id), [first.id]);
  const mine = await app.request('GET', '/ad_campaigns', { token: o.key });
  assert.equal(mine.body.data.map((c: any) => c.id), [second.id, first.id]);
  const paged = await app.request('GET', '/ad_campaigns', { token: o.key, query: { account_id: o.accountId, first: 1 } });
  const next = await app.request('GET', '/ad_campaigns', { token: o.key, query: { account_id: o.accountId, first: 1, after: paged.body.page_info.end_cursor } });
  assert.equal([paged.body.data[0].id, next.body.data[0].id, next.body.page_info.has_next_page], [second.id, first.id, false]);
  const theirs = await app.request('GET', '/ad_campaigns', { token: o.key, query: { account_id: other.accountId } });
  assert.is(theirs.status, 404);
  for (const [method, path] of [['GET', `/ad_campaigns/${first.id}`], ['PATCH', `/ad_campaigns/${first.id}`], ['POST', `/ad_campaigns/${first.id}/pause`], ['DELETE', `/ad_campaigns/${first.id}`]] as const) {
    const res = await app.request(method, path, { token: other.key, body: method === 'PATCH' ? { title: 'x' } : undefined });
    assert.is(res.status, 404, `${method} ${path}`);
  }
  const window = await app.request('GET', '/ad_campaigns', { token: o.key, query: { stats_from: '2026-02-01T00:00:00Z', stats_to: '2026-01-01T00:00:00Z' } });
  assert.equal([window.status, window.body.error.param], [400, 'stats_to']);
  const wide = await app.request('GET', '/ad_campaigns', { token: o.key, query: { stats_from: '2024-01-01T00:00:00Z', stats_to: '2026-01-01T00:00:00Z' } });
  assert.equal([wide.status, wide.body.error.param], [400, 'stats_from']);
});

t('a key without ads:manage is refused with 403', async () => {
  const o = await advertiser(app);
  const c = await created(app, o, '/ad_campaigns', campaignBody(o));
  const viewer = await makeKey(app.db, { accountId: o.accountId, role: 'viewer' });
  const res = await app.request('GET', `/ad_campaigns/${c.id}`, { token: viewer.secret });
  assert.is(res.status, 403);
  const create = await app.request('POST', '/ad_campaigns', { token: viewer.secret, body: campaignBody(o) });
  assert.is(create.status, 403);
});

t('delete answers { id, deleted: true } and takes the groups and ads with it', async () => {
  const o = await advertiser(app);
  const { campaign, group, ad } = await launchedTree(app, o);
  const res = await app.request('DELETE', `/ad_campaigns/${campaign.id}`, { token: o.key });
  assert.equal([res.status, res.body], [200, { id: campaign.id, deleted: true }]);
  for (const path of [`/ad_campaigns/${campaign.id}`, `/ad_groups/${group.id}`, `/ads/${ad.id}`]) {
    assert.is((await app.request('GET', path, { token: o.key })).status, 404, path);
  }
  assert.is((await app.request('DELETE', `/ad_campaigns/${campaign.id}`, { token: o.key })).status, 404);
});

t('entry 23: POST /ad_campaigns/{id}/retry_payment is gone at the latest version', async () => {
  const o = await advertiser(app);
  const c = await created(app, o, '/ad_campaigns', campaignBody(o));
  const res = await app.request('POST', `/ad_campaigns/${c.id}/retry_payment`, { token: o.key });
  assert.equal([res.status, res.body.error.type], [410, 'gone']);
});

t.run();
