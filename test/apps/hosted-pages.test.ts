// What this server answers at the addresses the API shows, without a worker (each queued job run as the worker
// runs it): a hosted app's hosted_url (/apps/<route>/) serves its approved production web build, a 404 page before
// it has one, a previous route redirects to the active one; an account's website (/sites/<route>/) answers a 404
// page (with Retry-After) while its
// deployment is queued, then the build it deployed, which a later promotion of the blueprint does not change. A build
// uploaded as a zip archive serves its entries under the address.
import { crc32, deflateRawSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';
import { jobsOf } from '../payments/payment-fixtures.js';
import { freshRoute, makeApp, runBuildJob, uploadArtifact, VERSION } from './app-fixtures.js';
import { CHECK_APP_BUILD, REVIEW_APP_BUILD } from '../../handlers/apps/build-jobs.js';
import { DEPLOY_BLUEPRINT, deploySite } from '../../handlers/accounts/account-sites.js';

const t = suite('hosted pages');
let app: TestApp;
let env: FileEnv;
t.before(async () => { app = await startTestApp(); env = useTemporaryStore(app); });
t.after(async () => { env.restore(); await app.close(); });

const origin = () => new URL(app.url).origin;
const promote = (key: string, id: string) => app.request('POST', `/app_builds/${id}/promote`, { token: key, version: VERSION });

/** A zip archive of `entries` (name -> text), each deflated, or stored when `stored` names it. */
function zip(entries: Record<string, string>, stored: string[] = []): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const raw = Buffer.from(text);
    const method = stored.includes(name) ? 0 : 8;
    const data = method === 0 ? raw : deflateRawSync(raw);
    const nameBytes = Buffer.from(name);
    const fields = (h: Buffer, at: number) => {
      h.writeUInt16LE(method, at); h.writeUInt32LE(crc32(raw), at + 6);
      h.writeUInt32LE(data.length, at + 10); h.writeUInt32LE(raw.length, at + 14); h.writeUInt16LE(nameBytes.length, at + 18);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); fields(local, 8);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); fields(central, 10);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(Object.keys(entries).length, 8); end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** An HTML web build of the app (index.html, or an archive's bytes as site.zip); checked and reviewed unless `draft`. */
async function htmlBuild(key: string, appId: string, html: string | Buffer, { draft = false } = {}) {
  const file = typeof html === 'string' ? await uploadArtifact(app, key, Buffer.from(html), 'index.html')
    : await uploadArtifact(app, key, html, 'site.zip');
  const res = await app.request('POST', '/app_builds', { token: key, version: VERSION, body: {
    app_id: appId, attachment: { id: file.id }, checksum: file.checksum, platform: 'web', supported_app_view_types: ['hub'] } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  if (draft) return res.body;
  await runBuildJob(app, CHECK_APP_BUILD, res.body.id);
  await runBuildJob(app, REVIEW_APP_BUILD, res.body.id);
  const built = (await app.request('GET', `/app_builds/${res.body.id}`, { token: key, version: VERSION })).body;
  assert.is(built.status, 'approved');
  return built;
}

/** Runs the website's queued deployment as the worker does, then removes the job as the worker would. */
async function runDeployment(siteId: string) {
  const jobs = await jobsOf(app, DEPLOY_BLUEPRINT, siteId);
  assert.is(jobs.length, 1, 'one deployment queued');
  await deploySite(app.db, siteId);
  await app.db('graphile_worker._private_jobs').whereIn('id', jobs.map((j) => j.id)).delete();
}

async function fetchPage(url: string) {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type'), location: res.headers.get('location'),
    retryAfter: res.headers.get('retry-after'), text: await res.text() };
}

t('a hosted app\'s hosted_url answers a 404 page until an approved web build is in production, then serves it', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  assert.is(a.hosted_url, `${origin()}/apps/${a.route}/`);
  const none = await fetchPage(a.hosted_url);
  assert.equal([none.status, none.type], [404, 'text/html; charset=utf-8']);
  assert.match(none.text, /no approved production web build/);

  const draft = await htmlBuild(o.key, a.id, '<h1>unreviewed</h1>', { draft: true });
  assert.is((await promote(o.key, draft.id)).status, 200);
  assert.is((await fetchPage(a.hosted_url)).status, 404, 'a promoted draft is not served');

  const first = await htmlBuild(o.key, a.id, '<h1>Version one</h1>');
  assert.is((await fetchPage(a.hosted_url)).status, 404, 'an approved build is served only once promoted');
  assert.is((await promote(o.key, first.id)).status, 200);
  assert.equal(await fetchPage(a.hosted_url), { status: 200, type: 'text/html; charset=utf-8', location: null, retryAfter: null, text: '<h1>Version one</h1>' });

  const second = await htmlBuild(o.key, a.id, '<h1>Version two</h1>');
  assert.is((await promote(o.key, second.id)).status, 200);
  assert.is((await fetchPage(a.hosted_url)).text, '<h1>Version two</h1>');
  const bare = await fetchPage(a.hosted_url.slice(0, -1));
  assert.equal([bare.status, bare.location], [308, `/apps/${a.route}/`]);
});

t('a previous route redirects (308) to the active one; a route no app has answers 404', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  assert.is((await promote(o.key, (await htmlBuild(o.key, a.id, '<p>moved</p>')).id)).status, 200);
  const next = freshRoute('moved');
  const moved = await app.request('PATCH', `/apps/${a.id}`, { token: o.key, version: VERSION, body: { route: next } });
  assert.is(moved.status, 200, JSON.stringify(moved.body));
  assert.is(moved.body.hosted_url, `${origin()}/apps/${next}/`);
  assert.equal(moved.body.domains.map((d: any) => d.url), [`${origin()}/apps/${next}/`, `${origin()}/apps/${a.route}/`]);
  const old = await fetchPage(`${origin()}/apps/${a.route}/`);
  assert.equal([old.status, old.location], [308, `/apps/${next}/`]);
  assert.is((await fetchPage(moved.body.hosted_url)).text, '<p>moved</p>');
  const nobody = await fetchPage(`${origin()}/apps/${freshRoute('nobody')}/`);
  assert.equal([nobody.status, nobody.type], [404, 'text/html; charset=utf-8']);
});

t('a website answers a 404 page (Retry-After) while queued, then the build it deployed, which a later promotion does not change', async () => {
  const o = await makeOwner(app.db);
  const blueprint = await makeApp(app, o);
  assert.is((await promote(o.key, (await htmlBuild(o.key, blueprint.id, '<h1>Site v1</h1>')).id)).status, 200);
  const account = await app.request('POST', '/accounts', { token: o.token, version: VERSION, body: { title: 'Shop', blueprint_id: blueprint.id } });
  assert.is(account.status, 201, JSON.stringify(account.body));
  const queued = await app.request('GET', `/accounts/${account.body.id}/website`, { token: o.token, version: VERSION });
  assert.is(queued.status, 200, JSON.stringify(queued.body));
  assert.equal([queued.body.status, queued.body.url, queued.body.deployed_at], ['queued', null, null]);
  const address = `${origin()}/sites/${account.body.route}/`;
  const waiting = await fetchPage(address);
  assert.equal([waiting.status, waiting.retryAfter], [404, '5']);
  assert.match(waiting.text, /being deployed/);

  await runDeployment(queued.body.id);
  const site = (await app.request('GET', `/accounts/${account.body.id}/website`, { token: o.token, version: VERSION })).body;
  assert.equal([site.status, site.url], ['deployed', address]);
  assert.is((await fetchPage(address)).text, '<h1>Site v1</h1>');

  assert.is((await promote(o.key, (await htmlBuild(o.key, blueprint.id, '<h1>Template v2</h1>')).id)).status, 200);
  assert.is((await fetchPage(address)).text, '<h1>Site v1</h1>', 'the website keeps the build it deployed');
  assert.is((await fetchPage(blueprint.hosted_url)).text, '<h1>Template v2</h1>', 'the blueprint itself serves its new build');
});

t('a zip archive build serves its entries under the address, each with its type; what it lacks is a 404', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const archive = zip({ 'site/index.html': '<link rel="stylesheet" href="app.css"><h1>Zipped</h1>', 'site/app.css': 'h1 { color: teal }',
    'site/img/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>', 'site/docs/index.html': '<p>docs</p>' }, ['site/app.css']);
  assert.is((await promote(o.key, (await htmlBuild(o.key, a.id, archive)).id)).status, 200);
  const at = (path: string) => fetchPage(`${a.hosted_url}${path}`);
  assert.equal([(await at('')).type, (await at('')).text], ['text/html; charset=utf-8', '<link rel="stylesheet" href="app.css"><h1>Zipped</h1>']);
  assert.equal([(await at('app.css')).type, (await at('app.css')).text], ['text/css; charset=utf-8', 'h1 { color: teal }']);
  assert.equal([(await at('img/logo.svg')).status, (await at('img/logo.svg')).type], [200, 'image/svg+xml']);
  assert.is((await at('docs/')).text, '<p>docs</p>');
  for (const missing of ['nothing.js', 'img/', 'site/index.html', '..%2fsecret']) assert.is((await at(missing)).status, 404, missing);

  const account = await app.request('POST', '/accounts', { token: o.token, version: VERSION, body: { title: 'Zip shop', blueprint_id: a.id } });
  const queued = await app.request('GET', `/accounts/${account.body.id}/website`, { token: o.token, version: VERSION });
  await runDeployment(queued.body.id);
  const site = (await app.request('GET', `/accounts/${account.body.id}/website`, { token: o.token, version: VERSION })).body;
  assert.is((await fetchPage(`${site.url}app.css`)).text, 'h1 { color: teal }');
  assert.is((await fetchPage(site.url)).text, '<link rel="stylesheet" href="app.css"><h1>Zipped</h1>');
});

t.run();
