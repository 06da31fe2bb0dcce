// blueprint_id with the worker running: an account created from a hosted app whose approved web build is in
// production gets a website, deployed in the background from that build (the build itself went through the
// simulated build system on the same worker). GET /accounts/{id}/website shows the deployment's state, and the
// website's url is this server's /sites/<account route>/, which answers the build's bytes; a blueprint without an
// approved production web build gives a failed website whose address answers 404.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';
import { makeApp, uploadArtifact, VERSION } from './app-fixtures.js';

const t = suite('blueprint websites');
let app: TestApp;
let env: FileEnv;
t.before(async () => { app = await startTestApp({ worker: true }); env = useTemporaryStore(app); });
t.after(async () => { env.restore(); await app.close(); });

const origin = () => new URL(app.url).origin;
const website = (token: string, accountId: string) => app.request('GET', `/accounts/${accountId}/website`, { token, version: VERSION });
/** The website once its deployment ran (no longer queued). */
const deployed = (token: string, accountId: string) => until(async () => {
  const res = await website(token, accountId);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.status === 'queued' ? undefined : res.body;
}, 'the website deployment');

t('the worker builds and reviews; the website deploys the production web build and this server serves it', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const html = Buffer.from('<!doctype html><title>Template</title><h1>Hello from the blueprint</h1>');
  const file = await uploadArtifact(app, o.key, html, 'index.html');
  const build = await app.request('POST', '/app_builds', { token: o.key, version: VERSION,
    body: { app_id: a.id, attachment: { id: file.id }, checksum: file.checksum, platform: 'web', supported_app_view_types: ['hub'] } });
  assert.is(build.status, 201);
  await until(async () => (await app.request('GET', `/app_builds/${build.body.id}`, { token: o.key, version: VERSION })).body.status === 'approved',
    'the build approved by the build system');
  assert.is((await app.request('POST', `/app_builds/${build.body.id}/promote`, { token: o.key, version: VERSION })).status, 200);

  const res = await app.request('POST', '/accounts', { token: o.token, version: VERSION, body: { title: 'From template', blueprint_id: a.id } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const site = await deployed(o.token, res.body.id);
  assert.match(site.id, /^site_/);
  assert.equal([site.account_id, site.blueprint_id, site.status, site.app_build_id, site.failure_reason],
    [res.body.id, a.id, 'deployed', build.body.id, null]);
  assert.is(site.url, `${origin()}/sites/${res.body.route}/`);
  assert.ok(site.deployed_at);
  assert.is((await app.request('GET', `/apps/${a.id}`, { token: o.key, version: VERSION })).body.template_usage, 1);

  const page = await fetch(site.url);
  assert.is(page.status, 200);
  assert.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(page.headers.get('content-security-policy') ?? '', /^sandbox /);
  assert.is(await page.text(), html.toString());
  const bare = await fetch(site.url.slice(0, -1), { redirect: 'manual' });
  assert.equal([bare.status, bare.headers.get('location')], [308, `/sites/${res.body.route}/`]);
});

t('a blueprint without an approved production web build: the website fails, says why, and its address answers 404', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const res = await app.request('POST', '/accounts', { token: o.token, version: VERSION, body: { title: 'Too early', blueprint_id: a.id } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const site = await deployed(o.token, res.body.id);
  assert.equal([site.status, site.url, site.app_build_id, site.deployed_at, site.failure_reason],
    ['failed', null, null, null, `The blueprint ${a.id} has no production web build`]);
  const page = await fetch(`${origin()}/sites/${res.body.route}/`);
  assert.is(page.status, 404);
  assert.match(await page.text(), /deployment failed/);
});

t('an account created without a blueprint has no website (404 naming id); another account cannot read one', async () => {
  const o = await makeOwner(app.db);
  const plain = await website(o.key, o.accountId);
  assert.equal([plain.status, plain.body.error.param], [404, 'id']);
  const stranger = await makeOwner(app.db);
  assert.is((await website(stranger.key, o.accountId)).status, 404);
  assert.is((await fetch(`${origin()}/sites/${o.account.route}/`)).status, 404);
});

t.run();
