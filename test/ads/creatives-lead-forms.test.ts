// Ads' creatives (ready image and video files of the account, with crop and format) and instant forms over HTTP:
// GET /external_accounts/{id}/lead_forms lists a page's active forms (those the network held at connection and
// those ads authored), an ad authors one (lead_form) or reuses one (lead_form_id), leads campaigns only, on its
// facebook page; the sandbox archive; /social_accounts/{id}/lead_forms deprecated at the head and the operation
// itself at 2026-08-27, where forms name social_account_id.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import type { TestApp } from '../helpers/harness.js';
import { startAppWithStore, type FileEnv } from '../files/file-env.js';
import { advertiser, campaignBody, created, type Owner } from './ads-fixtures.js';
import { connectedAccount } from '../external_accounts/external-account-fixtures.js';

const t = suite('ad creatives and lead forms');
let app: TestApp;
let env: { close(): Promise<void>; env: FileEnv };
t.before(async () => { const s = await startAppWithStore(); app = s.app; env = s; });
t.after(async () => { await env.close(); });

async function file(o: Owner, filename: string, upload = true): Promise<string> {
  const f = await app.request('POST', '/files', { token: o.key, body: { filename } });
  assert.is(f.status, 201, JSON.stringify(f.body));
  if (upload) assert.is((await fetch(f.body.upload_url, { method: 'PUT', body: 'bytes', headers: f.body.upload_headers })).status, 200);
  return f.body.id;
}

/** A facebook handle whose page the network gives `forms` instant forms (byte 20 of its digest, mod 3). */
function pageWithForms(forms: number): string {
  for (let i = 0; ; i++) {
    const name = `page${Date.now().toString(36)}${i}`;
    if (createHash('sha256').update(`facebook:${name}`).digest()[20]! % 3 === forms) return name;
  }
}

async function leadsGroup(o: Owner, objective = 'leads') {
  const c = await created(app, o, '/ad_campaigns', campaignBody(o, { objective }));
  return created(app, o, '/ad_groups', { ad_campaign_id: c.id });
}

const FORM = { name: 'Get a quote', questions: [{ type: 'full_name' }, { type: 'custom', label: 'Budget?' }], privacy_policy: { url: 'https://shop.example/privacy' } };

t('creatives: ready images and videos of the account, shown with media_type and url; every refusal names the entry', async () => {
  const o = await advertiser(app);
  const image = await file(o, 'hero.png');
  const video = await file(o, 'clip.mp4');
  const g = await leadsGroup(o, 'traffic');
  const ad = await created(app, o, '/ads', { ad_group_id: g.id, creatives: [
    { id: image, crop: { x: 0.45, y: 0, width: 0.55, height: 1 }, format: 'vertical' }, { id: video },
  ] });
  assert.is(ad.creatives.length, 2);
  assert.equal([ad.creatives[0].id, ad.creatives[0].crop, ad.creatives[0].format, ad.creatives[0].media_type], [image, { x: 0.45, y: 0, width: 0.55, height: 1 }, 'vertical', 'image']);
  assert.equal([ad.creatives[1].crop, ad.creatives[1].format, ad.creatives[1].media_type], [null, null, 'video']);
  assert.match(ad.creatives[0].url, new RegExp(`/downloads/${image}/hero\\.png\\?expires=\\d+&signature=`));
  const download = await fetch(ad.creatives[0].url);
  assert.equal([download.status, await download.text()], [200, 'bytes']);
  const plain = await created(app, o, '/ads', { ad_group_id: g.id });
  assert.equal(plain.creatives, []);

  const other = await advertiser(app);
  const theirs = await file(other, 'theirs.png');
  const pending = await file(o, 'later.png', false);
  const pdf = await file(o, 'doc.pdf');
  const refuse = async (creatives: unknown[], param: string) => {
    const res = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: g.id, creatives } });
    assert.equal([res.status, res.body.error?.param], [400, param], JSON.stringify(res.body));
  };
  await refuse([{ id: image }, { id: theirs }], 'creatives.1.id');
  await refuse([{ id: pending }], 'creatives.0.id');
  await refuse([{ id: pdf }], 'creatives.0.id');
  await refuse([{ id: 'sacc_notafile' }], 'creatives.0.id');
  await refuse([{ id: image, crop: { x: 0.5, y: 0, width: 0.6, height: 1 } }], 'creatives.0.crop');
  await refuse([{ id: image, format: 'round' }], 'creatives.0.format');
  const [{ n }] = await app.db('ads').where({ ad_group_id: g.id }).count({ n: '*' });
  assert.is(Number(n), 2, 'refused ads write nothing');

  const upd = await app.request('PATCH', `/ads/${ad.id}`, { token: o.key, body: { creatives: [{ id: video, format: 'square' }] } });
  assert.equal(upd.body.creatives.map((c: any) => [c.id, c.format, c.media_type]), [[video, 'square', 'video']]);
  const kept = await app.request('PATCH', `/ads/${ad.id}`, { token: o.key, body: { title: 'Renamed' } });
  assert.is(kept.body.creatives.length, 1, 'an update without creatives keeps them');
  const listed = await app.request('GET', '/ads', { token: o.key, query: { ad_group_id: g.id } });
  assert.equal(listed.body.data.find((x: any) => x.id === ad.id).creatives.map((c: any) => c.id), [video]);
  // The official client's pin shows creatives the same way.
  const old = await app.request('GET', `/ads/${ad.id}`, { token: o.key, version: '2026-07-20' });
  assert.equal(old.body.creatives.map((c: any) => c.id), [video]);
});

t('lead forms: the network\'s forms at connection, listed newest first; other platforms have none; scoping', async () => {
  const o = await advertiser(app);
  const page = await connectedAccount(app, o.key, o.accountId, { username: pageWithForms(2) });
  const list = await app.request('GET', `/external_accounts/${page.id}/lead_forms`, { token: o.key, query: { account_id: o.accountId } });
  assert.is(list.status, 200);
  assert.equal(list.body.data.map((f: any) => f.id), [`${page.external_id}_f1`, `${page.external_id}_f2`]);
  assert.equal([list.body.data[0].locale, list.body.data[0].question_labels, list.body.data[0].status, list.body.data[0].external_account_id], ['en_US', ['Full name', 'Email'], 'active', page.id]);
  const none = await connectedAccount(app, o.key, o.accountId, { username: pageWithForms(0) });
  assert.equal((await app.request('GET', `/external_accounts/${none.id}/lead_forms`, { token: o.key })).body.data, []);
  const x = await connectedAccount(app, o.key, o.accountId, { platform: 'x' });
  assert.equal((await app.request('GET', `/external_accounts/${x.id}/lead_forms`, { token: o.key })).body.data, []);
  const other = await advertiser(app);
  assert.is((await app.request('GET', `/external_accounts/${page.id}/lead_forms`, { token: other.key })).status, 404);
  assert.is((await app.request('GET', `/external_accounts/${page.id}/lead_forms`, { token: o.key, query: { account_id: other.accountId } })).status, 404);
  const paged = await app.request('GET', `/external_accounts/${page.id}/lead_forms`, { token: o.key, query: { first: 1 } });
  assert.equal([paged.body.data.length, paged.body.page_info.has_next_page], [1, true]);
});

t('ads author a form on their page or reuse an active one; leads campaigns only; archive; older pin', async () => {
  const o = await advertiser(app);
  const page = await connectedAccount(app, o.key, o.accountId, { username: pageWithForms(1) });
  const ig = await connectedAccount(app, o.key, o.accountId, { platform: 'instagram' });
  const g = await leadsGroup(o);
  const authored = await created(app, o, '/ads', { ad_group_id: g.id, external_accounts: [{ id: page.id }], lead_form: FORM });
  assert.is(authored.lead_form_id, `${page.external_id}_f2`);
  assert.equal(authored.lead_form, {
    name: 'Get a quote', form_type: 'more_volume', phone_verification: false, intro: null,
    questions: [{ type: 'full_name', label: 'Full name' }, { type: 'custom', label: 'Budget?' }],
    privacy_policy: { url: 'https://shop.example/privacy', link_text: null }, disclaimer: null, completion: null,
  });
  const forms = (await app.request('GET', `/external_accounts/${page.id}/lead_forms`, { token: o.key })).body.data;
  assert.equal(forms.map((f: any) => [f.id, f.name, f.question_labels]), [[authored.lead_form_id, 'Get a quote', ['Full name', 'Budget?']], [`${page.external_id}_f1`, 'Lead form 1', ['Full name', 'Email']]]);

  const reused = await created(app, o, '/ads', { ad_group_id: g.id, external_accounts: [{ id: page.id }, { id: ig.id }], lead_form_id: `${page.external_id}_f1` });
  assert.equal([reused.lead_form_id, reused.lead_form], [`${page.external_id}_f1`, null]);

  const refuse = async (body: Record<string, unknown>, param: string, group = g.id) => {
    const res = await app.request('POST', '/ads', { token: o.key, body: { ad_group_id: group, external_accounts: [{ id: page.id }], ...body } });
    assert.equal([res.status, res.body.error?.param], [400, param], JSON.stringify(res.body));
  };
  await refuse({ lead_form: FORM, lead_form_id: `${page.external_id}_f1` }, 'lead_form_id');
  await refuse({ lead_form_id: `${page.external_id}_f9` }, 'lead_form_id');
  await refuse({ lead_form_id: `${page.external_id}_f1`, external_accounts: [{ id: ig.id }] }, 'lead_form_id');
  await refuse({ lead_form: FORM, external_accounts: [] }, 'lead_form');
  await refuse({ lead_form: { ...FORM, questions: [] } }, 'lead_form.questions');
  await refuse({ lead_form: { ...FORM, questions: [{ type: 'custom' }] } }, 'lead_form.questions.0.label');
  await refuse({ lead_form: { name: 'No policy', questions: [{ type: 'email' }] } }, 'lead_form.privacy_policy');
  await refuse({ lead_form_id: 'abc' }, 'lead_form_id');
  const traffic = await leadsGroup(o, 'traffic');
  await refuse({ lead_form_id: `${page.external_id}_f1` }, 'lead_form_id', traffic.id);
  await refuse({ lead_form: FORM }, 'lead_form', traffic.id);
  // Another account's page (the same form ids on the network) is not the ad's page.
  const other = await advertiser(app);
  const theirPage = await connectedAccount(app, other.key, other.accountId, { username: pageWithForms(1) });
  await refuse({ lead_form_id: `${theirPage.external_id}_f1` }, 'lead_form_id');
  assert.is((await app.db('external_account_lead_forms').where({ external_account_id: page.id }).count({ n: '*' }))[0].n, 2, 'refusals make no form');

  // Updates: author anew (another form), drop the page under a kept form, clear it.
  const again = await app.request('PATCH', `/ads/${authored.id}`, { token: o.key, body: { lead_form: { ...FORM, name: 'Second' } } });
  assert.equal([again.status, again.body.lead_form_id, again.body.lead_form.name], [200, `${page.external_id}_f3`, 'Second']);
  const dropPage = await app.request('PATCH', `/ads/${authored.id}`, { token: o.key, body: { external_accounts: [{ id: ig.id }] } });
  assert.equal([dropPage.status, dropPage.body.error?.param], [400, 'external_accounts']);
  const cleared = await app.request('PATCH', `/ads/${authored.id}`, { token: o.key, body: { lead_form_id: null } });
  assert.equal([cleared.body.lead_form_id, cleared.body.lead_form], [null, null]);

  // The owner archives f1 on the network: no longer listed nor reusable; the ad using it keeps it.
  const archived = await app.request('POST', `/sandbox/external_accounts/${page.id}/lead_forms/${page.external_id}_f1/archive`, { token: o.key });
  assert.equal([archived.status, archived.body.status], [200, 'archived']);
  assert.equal((await app.request('POST', `/sandbox/external_accounts/${page.id}/lead_forms/${page.external_id}_f1/archive`, { token: o.key })).status, 400);
  assert.equal((await app.request('POST', `/sandbox/external_accounts/${page.id}/lead_forms/${page.external_id}_f77/archive`, { token: o.key })).status, 404);
  assert.equal((await app.request('GET', `/external_accounts/${page.id}/lead_forms`, { token: o.key })).body.data.map((f: any) => f.id), [`${page.external_id}_f3`, `${page.external_id}_f2`]);
  await refuse({ lead_form_id: `${page.external_id}_f1` }, 'lead_form_id');
  assert.is((await app.request('GET', `/ads/${reused.id}`, { token: o.key })).body.lead_form_id, `${page.external_id}_f1`);

  // Before entry 11 the list is served at /social_accounts and a form names social_account_id.
  const head = await app.request('GET', `/social_accounts/${page.id}/lead_forms`, { token: o.key });
  assert.equal([head.status, head.headers.get('deprecation')], [200, 'true']);
  const old = await app.request('GET', `/social_accounts/${page.id}/lead_forms`, { token: o.key, version: '2026-08-27' });
  assert.equal([old.status, old.headers.get('deprecation'), old.body.data[0].social_account_id, 'external_account_id' in old.body.data[0]], [200, null, page.id, false]);
  assert.is((await app.request('GET', `/external_accounts/${page.id}/lead_forms`, { token: o.key, version: '2026-08-27' })).status, 404);
});

t.run();
