// The OAuth-style connection over HTTP: POST /external_accounts/connect answers an authorize_url; the sandbox
// network's consent page (no credentials: the single-use state is the credential) creates the external accounts
// once, as POST /external_accounts does, and sends the browser to redirect_url. Denial, expiry, reuse, a handle
// already connected, bad answers, and the older pin's /social_accounts/connect.
import { hashSecret } from '../../runtime/credentials.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { runQueuedConnect } from './external-account-fixtures.js';

const t = suite('external accounts connect flow');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const local = (url: string) => `${app.server.url}${new URL(url).pathname}${new URL(url).search}`;
const submit = (url: string, form: string, contentType = 'application/x-www-form-urlencoded') =>
  fetch(local(url), { method: 'POST', headers: { 'content-type': contentType }, body: form, redirect: 'manual' });
const handle = () => `page${Math.random().toString(36).slice(2, 10)}`;

async function start(o: { key: string; accountId: string }, body: Record<string, unknown> = {}, path = '/external_accounts/connect', version?: string) {
  const res = await app.request('POST', path, { token: o.key, version, body: { account_id: o.accountId, platform: 'meta_business', ...body } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res;
}

t('meta_business: consent names the seller; allow creates the page and its instagram profile once, then redirects', async () => {
  const o = await makeOwner(app.db);
  const res = await start(o, { redirect_url: 'https://shop.example/ads?step=3', scopes: ['advertise'] });
  assert.match(res.body.authorize_url, /^http:\/\/127\.0\.0\.1:\d+\/sandbox\/oauth\/authorize\?state=[A-Za-z0-9]{40}$/);
  const expires = new Date(res.body.expires_at).getTime() - Date.now();
  assert.ok(expires > 29 * 60_000 && expires <= 30 * 60_000, String(expires));
  const [{ n: before }] = await app.db('external_accounts').where({ account_id: o.accountId }).count({ n: '*' });
  assert.is(Number(before), 0, 'starting connects nothing');

  const shown = await fetch(local(res.body.authorize_url));
  assert.is(shown.status, 200);
  const page = await shown.text();
  const title = (await app.db('accounts').where({ id: o.accountId }).first('title')).title;
  assert.ok(page.includes(title) && page.includes('run ads') && page.includes('instagram_username'));

  const page1 = handle();
  const ig = handle();
  const done = await submit(res.body.authorize_url, `decision=allow&username=${page1}&instagram_username=${ig}`);
  assert.is(done.status, 303);
  const back = new URL(done.headers.get('location')!);
  assert.equal([back.origin + back.pathname, back.searchParams.get('step'), back.searchParams.get('status')], ['https://shop.example/ads', '3', 'connecting']);
  const pageId = back.searchParams.get('external_account_id')!;
  const fb = await app.request('GET', `/external_accounts/${pageId}`, { token: o.key });
  assert.equal([fb.body.platform, fb.body.username, fb.body.status, fb.body.scopes], ['facebook', page1, 'connecting', ['advertise']]);
  await runQueuedConnect(app, pageId);
  const list = await app.request('GET', '/external_accounts', { token: o.key, query: { account_id: o.accountId, platform: 'instagram' } });
  assert.is(list.body.data.length, 1);
  assert.equal([list.body.data[0].username, list.body.data[0].parent_external_account.id], [ig, pageId]);
  assert.is((await app.request('GET', `/external_accounts/${pageId}`, { token: o.key })).body.status, 'connected');

  // Single use: the state is spent, the page and a second answer find nothing, and nothing more is created.
  assert.is((await fetch(local(res.body.authorize_url))).status, 404);
  assert.is((await submit(res.body.authorize_url, `decision=allow&username=${handle()}`)).status, 404);
  const [{ n }] = await app.db('external_accounts').where({ account_id: o.accountId }).count({ n: '*' });
  assert.is(Number(n), 2);
});

t('tiktok without redirect_url: the page says the outcome; deny and a handle already connected create nothing', async () => {
  const o = await makeOwner(app.db);
  const first = await start(o, { platform: 'tiktok' });
  const name = handle();
  const ok = await submit(first.body.authorize_url, `decision=allow&username=@${name.toUpperCase()}`);
  assert.is(ok.status, 200);
  assert.ok((await ok.text()).includes('is connecting'));
  const tiktok = await app.request('GET', '/external_accounts', { token: o.key, query: { account_id: o.accountId, platform: 'tiktok' } });
  assert.equal(tiktok.body.data.map((x: any) => [x.username, x.scopes]), [[name, []]]);

  const again = await start(o, { platform: 'tiktok', redirect_url: 'https://shop.example/back' });
  const dup = await submit(again.body.authorize_url, `decision=allow&username=${name}`);
  assert.is(new URL(dup.headers.get('location')!).searchParams.get('error'), 'already_connected');
  const denied = await start(o, { redirect_url: 'https://shop.example/back' });
  const no = await submit(denied.body.authorize_url, 'decision=deny');
  const where = new URL(no.headers.get('location')!);
  assert.equal([where.searchParams.get('error'), where.searchParams.get('external_account_id')], ['access_denied', null]);
  const [{ n }] = await app.db('external_accounts').where({ account_id: o.accountId }).count({ n: '*' });
  assert.is(Number(n), 1);
});

t('expiry: an expired link shows 410 and its answer creates nothing; bad answers leave the link usable', async () => {
  const o = await makeOwner(app.db);
  const res = await start(o, { redirect_url: 'https://shop.example/back' });
  // Stored as its hash (handlers/external_accounts/oauth-connections.ts).
  const state = hashSecret(new URL(res.body.authorize_url).searchParams.get('state')!);
  assert.is((await submit(res.body.authorize_url, 'decision=maybe')).status, 400);
  assert.is((await submit(res.body.authorize_url, 'decision=allow&username=no spaces')).status, 400);
  assert.is((await submit(res.body.authorize_url, 'decision=allow&username=ok&instagram_username=' + 'x'.repeat(31))).status, 400);
  assert.is((await submit(res.body.authorize_url, '{"decision":"allow"}', 'application/json')).status, 400);
  await app.db('external_account_connections').where({ state }).update({ expires_at: new Date(Date.now() - 1000) }); // sql-state-write: the consent page has no account credential, so runs on real time, and a link lasts 30 minutes (a constant)
  assert.is((await fetch(local(res.body.authorize_url))).status, 410);
  const late = await submit(res.body.authorize_url, `decision=allow&username=${handle()}`);
  assert.is(new URL(late.headers.get('location')!).searchParams.get('error'), 'expired');
  assert.is((await app.db('external_account_connections').where({ state }).first()).status, 'expired');
  assert.is((await submit(res.body.authorize_url, `decision=allow&username=${handle()}`)).status, 404, 'settled once');
  const [{ n }] = await app.db('external_accounts').where({ account_id: o.accountId }).count({ n: '*' });
  assert.is(Number(n), 0);
  assert.is((await fetch(`${app.server.url}/sandbox/oauth/authorize?state=short`)).status, 404);
});

t('errors: platform, redirect_url, scopes, another account; /social_accounts/connect is deprecated at the head and served at 2026-08-27', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const bad = async (body: Record<string, unknown>, param: string) => {
    const res = await app.request('POST', '/external_accounts/connect', { token: o.key, body: { account_id: o.accountId, platform: 'meta_business', ...body } });
    assert.equal([res.status, res.body.error?.param], [400, param], JSON.stringify(res.body));
  };
  await bad({ platform: 'facebook' }, 'platform');
  await bad({ redirect_url: 'javascript:alert(1)' }, 'redirect_url');
  await bad({ scopes: ['everything'] }, 'scopes.0');
  const foreign = await app.request('POST', '/external_accounts/connect', { token: other.key, body: { account_id: o.accountId, platform: 'tiktok' } });
  assert.ok([403, 404].includes(foreign.status));
  const [{ n }] = await app.db('external_account_connections').count({ n: '*' });
  const head = await start(o, {}, '/social_accounts/connect');
  assert.equal([head.headers.get('deprecation'), head.headers.get('link')], ['true', '</api/v1/external_accounts/connect>; rel="successor-version"']);
  const old = await start(o, { platform: 'tiktok' }, '/social_accounts/connect', '2026-08-27');
  assert.is(old.headers.get('deprecation'), null, 'before entry 11 it is the operation itself');
  assert.is((await app.request('POST', '/external_accounts/connect', { token: o.key, version: '2026-08-27', body: { account_id: o.accountId, platform: 'tiktok' } })).status, 404);
  const name = handle();
  await submit(old.body.authorize_url, `decision=allow&username=${name}`);
  const made = await app.request('GET', '/social_accounts', { token: o.key, version: '2026-08-27', query: { account_id: o.accountId } });
  assert.equal(made.body.data.map((x: any) => [x.platform, x.username, 'parent_social_account' in x]), [['tiktok', name, true]]);
  const [{ n: after }] = await app.db('external_account_connections').count({ n: '*' });
  assert.is(Number(after) - Number(n), 2);
});

t.run();
