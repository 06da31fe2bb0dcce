// /ad_groups and /ads over HTTP: group budgets by the campaign's budget_optimization, audiences by form, ad copy
// as { language, text } with translations (plain strings refused at the head), pause/unpause, delete, lists and
// filters, and the older shapes: copy as strings before entry 17 (2026-08-28) with the update of a translated ad
// refused there, social_accounts before entry 11 (2026-08-28), post_id as the chosen post before entry 38 (2026-08-21).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { advertiser, audience, campaignBody, created, externalAccountWithPost } from './ads-fixtures.js';

const BEFORE_17 = '2026-08-27'; // also before entry 11
const BEFORE_38 = '2026-08-20';
const t = suite('ad groups and ads');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

async function group(o: Awaited<ReturnType<typeof advertiser>>, campaign: Record<string, unknown> = {}) {
  const c = await created(app, o, '/ad_campaigns', campaignBody(o, campaign));
  return created(app, o, '/ad_groups', { ad_campaign_id: c.id });
}

t('ad groups: budget only with budget_optimization ad_group; audiences by form; another account\'s campaign is 404', async () => {
  const o = await advertiser(app);
  const c = await created(app, o, '/ad_campaigns', campaignBody(o));
  const g = await created(app, o, '/ad_groups', { ad_campaign_id: c.id, title: 'Broad', audiences: { include: [], exclude: [] } });
  assert.match(g.id, /^adgrp_/);
  assert.equal([g.ad_campaign, g.status, g.delivery_status, g.budget_amount, g.audiences], [{ id: c.id }, 'active', 'draft', null, { include: [], exclude: [] }]);
  const withBudget = await app.request('POST', '/ad_groups', { token: o.key, body: { ad_campaign_id: c.id, budget_amount: 1000, budget_type: 'daily' } });
  assert.equal([withBudget.status, withBudget.body.error.param], [400, 'budget_amount']);
  const perGroup = await created(app, o, '/ad_campaigns', campaignBody(o, { budget_optimization: 'ad_group' }));
  const missing = await app.request('POST', '/ad_groups', { token: o.key, body: { ad_campaign_id: perGroup.id } });
  assert.equal([missing.status, missing.body.error.param], [400, 'budget_amount']);
  const ok = await created(app, o, '/ad_groups', { ad_campaign_id: perGroup.id, budget_amount: 2400, budget_type: 'daily' });
  assert.equal([ok.budget_amount, ok.budget_type], [2400, 'daily']);
  const badAudience = await app.request('POST', '/ad_groups', { token: o.key, body: { ad_campaign_id: c.id, audiences: { include: ['sacc_x'] } } });
  assert.is(badAudience.status, 400);
  assert.match(badAudience.body.error.param, /^audiences\.include/);
  const other = await advertiser(app);
  const mine = await audience(app, o.accountId, 5000);
  const foreignAudience = await audience(app, other.accountId, 5000);
  const notMine = await app.request('POST', '/ad_groups', { token: o.key, body: { ad_campaign_id: c.id, audiences: { include: [mine], exclude: [foreignAudience] } } });
  assert.equal([notMine.status, notMine.body.error.param], [400, 'audiences.exclude']);
  const both = await app.request('POST', '/ad_groups', { token: o.key, body: { ad_campaign_id: c.id, audiences: { include: [mine], exclude: [mine] } } });
  assert.equal([both.status, both.body.error.param], [400, 'audiences.exclude']);
  const targeted = await created(app, o, '/ad_groups', { ad_campaign_id: c.id, audiences: { include: [mine] } });
  assert.equal(targeted.audiences, { include: [mine], exclude: [] });
  const theirs = await app.request('POST', '/ad_groups', { token: other.key, body: { ad_campaign_id: c.id } });
  assert.equal([theirs.status, theirs.body.error.param], [404, 'ad_campaign_id']);
  const upd = await app.request('PATCH', `/ad_groups/${g.id}`, { token: o.key, body: { title: 'Narrow', optimization_goal: 'link_clicks' } });
  assert.equal([upd.status, upd.body.title, upd.body.optimization_goal], [200, 'Narrow', 'link_clicks']);
  const list = await app.request('GET', '/ad_groups', { token: o.key, query: { ad_campaign_id: c.id } });
  assert.equal(list.body.data.map((x: any) => x.id), [targeted.id, g.id]);
  const paused = await app.request('POST', `/ad_groups/${g.id}/pause`, { token: o.key });
  assert.equal([paused.body.status, (await app.request('POST', `/ad_groups/${g.id}/pause`, { token: o.key })).status], ['paused', 400]);
  const gone = await app.request('DELETE', `/ad_groups/${g.id}`, { token: o.key });
  assert.equal(gone.body, { id: g.id, deleted: true });
});

t('ad copy: { language, text }; language only with translations, and then one of its languages; plain strings are a 400', async () => {
  const o = await advertiser(app);
  const g = await group(o);
  const ad = await created(app, o, '/ads', { ad_group_id: g.id, primary_texts: [{ text: 'Hello' }], headlines: [{ text: 'Hi' }] });
  assert.match(ad.id, /^ad_/);
  assert.equal([ad.primary_texts, ad.headlines, ad.descriptions, ad.translations, ad.ad_group, ad.ad_campaign.id],
    [[{ text: 'Hello' }], [{ text: 'Hi' }], [], null, { id: g.id }, g.ad_campaign.id]);
  assert.not.ok('language' in ad.primary_texts[0], 'language is omitted without translations');
  const strings = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: g.id, primary_texts: ['Hello'] } });
  assert.is(strings.status, 400);
  assert.match(strings.body.error.param, /^primary_texts/);
  const stray = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: g.id, headlines: [{ language: 'en', text: 'Hi' }] } });
  assert.equal([stray.status, stray.body.error.param], [400, 'headlines[0].language']);
  const translations = { source_language: 'en', automatic_languages: ['es', 'fr'] };
  const unnamed = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: g.id, translations, headlines: [{ text: 'Hi' }] } });
  assert.equal([unnamed.status, unnamed.body.error.param], [400, 'headlines[0].language']);
  const foreign = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: g.id, translations, headlines: [{ language: 'de', text: 'Hallo' }] } });
  assert.equal([foreign.status, foreign.body.error.param], [400, 'headlines[0].language']);
  const repeated = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: g.id, translations: { source_language: 'en', automatic_languages: ['en'] } } });
  assert.equal([repeated.status, repeated.body.error.param], [400, 'translations.automatic_languages']);
  const translated = await created(app, o, '/ads', { ad_group_id: g.id, translations, headlines: [{ language: 'en', text: 'Hi' }, { language: 'es', text: 'Hola' }] });
  assert.equal([translated.translations, translated.headlines], [translations, [{ language: 'en', text: 'Hi' }, { language: 'es', text: 'Hola' }]]);
  // null turns other languages off: the copy must then drop its languages in the same request
  const off = await app.request('PATCH', `/ads/${translated.id}`, { token: o.key, body: { translations: null } });
  assert.equal([off.status, off.body.error.param], [400, 'headlines[0].language']);
  const offed = await app.request('PATCH', `/ads/${translated.id}`, { token: o.key, body: { translations: null, headlines: [{ text: 'Hi' }] } });
  assert.equal([offed.status, offed.body.translations, offed.body.headlines], [200, null, [{ text: 'Hi' }]]);
  assert.is(Number((await app.db('ads').where({ account_id: o.accountId }).count('* as n'))[0]!.n), 2, 'refusals wrote nothing');
});

t('post_id is the served post; existing_post_id the chosen one; external_accounts by form; events ad.created and ad.updated', async () => {
  const o = await advertiser(app);
  const g = await group(o);
  const ad = await created(app, o, '/ads', { ad_group_id: g.id, headlines: [{ text: 'Hi' }] });
  assert.match(ad.post_id, /^post_/);
  assert.equal([ad.existing_post_id, ad.post_source, ad.post_thumbnail_url, ad.external_accounts], [null, null, null, []]);
  const badAccount = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: g.id, external_accounts: [{ id: 'biz_x' }] } });
  assert.is(badAccount.status, 400);
  assert.match(badAccount.body.error.param, /^external_accounts/);
  const paused = await app.request('POST', `/ads/${ad.id}/pause`, { token: o.key });
  assert.equal([paused.status, paused.body.status, paused.body.delivery_status], [200, 'paused', 'draft'], 'a draft campaign\'s ads are draft');
  const upd = await app.request('PATCH', `/ads/${ad.id}`, { token: o.key, body: { title: 'New', url: 'https://shop.example.com/sale', call_to_action: 'shop_now' } });
  assert.equal([upd.body.title, upd.body.url, upd.body.call_to_action], ['New', 'https://shop.example.com/sale', 'shop_now']);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [ad.id]).orderBy('created_at').pluck('type');
  assert.equal(events, ['ad.created', 'ad.updated', 'ad.updated']);
  const byGroup = await app.request('GET', '/ads', { token: o.key, query: { ad_group_id: g.id, status: 'paused' } });
  assert.equal(byGroup.body.data.map((x: any) => x.id), [ad.id]);
  const deleted = await app.request('DELETE', `/ads/${ad.id}`, { token: o.key });
  assert.equal(deleted.body, { id: ad.id, deleted: true });
  assert.is((await app.request('GET', `/ads/${ad.id}`, { token: o.key })).status, 404);
});

t('entry 17: before 2026-08-28 copy is plain strings both ways, and a translated ad cannot be updated there', async () => {
  const o = await advertiser(app);
  const g = await group(o);
  const old = await app.request('POST', '/ads', { token: o.key, version: BEFORE_17, body: { ad_group_id: g.id, primary_texts: ['Hello'], headlines: ['Hi', 'Hey'] } });
  assert.is(old.status, 201, JSON.stringify(old.body));
  assert.equal([old.body.primary_texts, old.body.headlines], [['Hello'], ['Hi', 'Hey']]);
  assert.not.ok('translations' in old.body);
  const head = await app.request('GET', `/ads/${old.body.id}`, { token: o.key });
  assert.equal([head.body.primary_texts, head.body.translations], [[{ text: 'Hello' }], null]);
  const objects = await app.request('POST', '/ads', { token: o.key, version: BEFORE_17, body: { ad_group_id: g.id, headlines: [{ text: 'Hi' }] } });
  assert.is(objects.status, 400);
  const noTranslations = await app.request('POST', '/ads', { token: o.key, version: BEFORE_17, body: { ad_group_id: g.id, translations: null } });
  assert.is(noTranslations.status, 400);
  const oldUpdate = await app.request('PATCH', `/ads/${old.body.id}`, { token: o.key, version: BEFORE_17, body: { headlines: ['Bye'] } });
  assert.equal([oldUpdate.status, oldUpdate.body.headlines], [200, ['Bye']]);
  const translated = await created(app, o, '/ads', { ad_group_id: g.id, translations: { source_language: 'en', automatic_languages: ['es'] }, headlines: [{ language: 'en', text: 'Hi' }] });
  const refused = await app.request('PATCH', `/ads/${translated.id}`, { token: o.key, version: BEFORE_17, body: { title: 'x' } });
  assert.equal([refused.status, refused.body.error.param], [400, 'translations']);
});

t('entry 11: before 2026-08-28 an ad names social_accounts, in requests and responses', async () => {
  const o = await advertiser(app);
  const g = await group(o);
  const old = await app.request('POST', '/ads', { token: o.key, version: BEFORE_17, body: { ad_group_id: g.id, social_accounts: [] } });
  assert.is(old.status, 201, JSON.stringify(old.body));
  assert.equal([old.body.social_accounts, 'external_accounts' in old.body], [[], false]);
  const head = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: g.id, social_accounts: [] } });
  assert.equal([head.status, head.body.error.param], [400, 'social_accounts']);
});

t('external accounts and the chosen post must be the account\'s own: post_id serves the chosen post', async () => {
  const o = await advertiser(app);
  const other = await advertiser(app);
  const g = await group(o);
  const mine = await externalAccountWithPost(app, o);
  const theirs = await externalAccountWithPost(app, other);
  const foreign = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: g.id, external_accounts: [{ id: mine.id }, { id: theirs.id }] } });
  assert.equal([foreign.status, foreign.body.error.param], [400, 'external_accounts[1].id']);
  const wrongPost = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: g.id, external_accounts: [{ id: mine.id }], existing_post_id: theirs.post } });
  assert.equal([wrongPost.status, wrongPost.body.error.param], [400, 'existing_post_id']);
  const noAccount = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: g.id, existing_post_id: mine.post } });
  assert.equal([noAccount.status, noAccount.body.error.param], [400, 'existing_post_id']);
  const ad = await created(app, o, '/ads', { ad_group_id: g.id, external_accounts: [{ id: mine.id }], existing_post_id: mine.post });
  assert.equal([ad.post_id, ad.existing_post_id, ad.post_source, ad.post_thumbnail_url, ad.external_accounts],
    [mine.post, mine.post, 'facebook', mine.thumbnail, [{ id: mine.id }]]);
  const tiktok = await externalAccountWithPost(app, o, 'tiktok');
  const notAds = await app.request('PATCH', `/ads/${ad.id}`, { token: o.key, body: { external_accounts: [{ id: tiktok.id }], existing_post_id: tiktok.post } });
  assert.equal([notAds.status, notAds.body.error.param], [400, 'existing_post_id']);
  const mine2 = await app.request('PATCH', `/ads/${ad.id}`, { token: o.key, body: { existing_post_id: null } });
  assert.equal([mine2.status, mine2.body.existing_post_id], [200, null]);
  assert.match(mine2.body.post_id, /^post_/, 'without a chosen post the network serves one of its own');
  const served = await app.request('GET', `/ad_posts/${mine2.body.post_id}`, { token: o.key });
  assert.equal([served.status, served.body.ad_id], [200, ad.id], 'a post the network stored');
});

t('entry 38: before 2026-08-21 post_id is the chosen post and the served post is not shown', async () => {
  const o = await advertiser(app);
  const g = await group(o);
  const ad = await created(app, o, '/ads', { ad_group_id: g.id }, BEFORE_38);
  assert.equal([ad.post_id, 'existing_post_id' in ad], [null, false]);
  const head = await app.request('GET', `/ads/${ad.id}`, { token: o.key });
  assert.match(head.body.post_id, /^post_/);
  assert.is(head.body.existing_post_id, null);
  const x = await externalAccountWithPost(app, o, 'instagram');
  const chosen = await created(app, o, '/ads', { ad_group_id: g.id, social_accounts: [{ id: x.id }], post_id: x.post }, BEFORE_38);
  assert.equal([chosen.post_id, chosen.social_accounts, chosen.post_source], [x.post, [{ id: x.id }], 'instagram']);
  const atHead = await app.request('GET', `/ads/${chosen.id}`, { token: o.key });
  assert.equal([atHead.body.post_id, atHead.body.existing_post_id], [x.post, x.post]);
});

t.run();
