// /apps and /domains over HTTP: registering hosted apps and API integrations (route and URL rules, 409 on a taken
// route), retrieve and update (a route change keeps the old hostname as previous; returning reactivates it), the
// list's filters and orders, another account's apps → 404, scopes, and the older shapes before entries 2
// (previous_hosted_urls, no GET /domains) and 36 (verified_apps_only).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { keyWith } from '../accounts/support.js';
import { builtBuild, freshRoute, makeApp, VERSION } from './app-fixtures.js';
import { publicBaseUrl } from '../../handlers/shared/public-url.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';

const BEFORE_2 = '2026-09-02'; // pins before 2026-09-06: previous_hosted_urls, no GET /domains
const BEFORE_36 = '2026-08-14'; // pins before 2026-08-21: verified_apps_only
const t = suite('apps');
/** Where this server answers for a hosted app's route (PUBLIC_BASE_URL/apps/<route>/). */
const served = (route: string) => `${publicBaseUrl()}/apps/${route}/`;
let app: TestApp;
let env: FileEnv;
t.before(async () => { app = await startTestApp(); env = useTemporaryStore(app); });
t.after(async () => { env.restore(); await app.close(); });

const get = (token: string, path: string, query?: Record<string, unknown>, version = VERSION) =>
  app.request('GET', path, { token, version, query: query as never });
const patch = (token: string, id: string, body: Record<string, unknown>, version = VERSION) =>
  app.request('PATCH', `/apps/${id}`, { token, version, body });

t('a hosted app is served at its route: one active domain, hosted_url, hidden and unverified; app.created', async () => {
  const o = await makeOwner(app.db);
  const route = freshRoute('chat');
  const a = await makeApp(app, o, { route, description: 'Team chat', app_type: 'b2c_app', redirect_uris: ['https://chat.example.com/cb'] });
  assert.match(a.id, /^app_/);
  assert.equal([a.account_id, a.name, a.description, a.app_type, a.deployment, a.route, a.status, a.verified, a.recommended,
    a.production_web_build_id, a.template_usage, a.redirect_uris, a.base_url],
  [o.accountId, 'Chat', 'Team chat', 'b2c_app', 'hosted', route, 'hidden', false, false, null, 0, ['https://chat.example.com/cb'], null]);
  assert.is(a.hosted_url, served(route));
  assert.match(a.domain_id, /^dom_/);
  assert.equal(a.domains, [{ id: a.domain_id, hostname: `${route}.apps.commerce.test`, url: a.hosted_url, status: 'active' }]);
  const got = await get(o.key, `/apps/${a.id}`);
  assert.equal(got.body, a);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [a.id]).select('type');
  assert.equal(events.map((e) => e.type), ['app.created']);
});

t('an API integration has no route, domain or hosted_url; deployment defaults from route', async () => {
  const o = await makeOwner(app.db);
  const res = await app.request('POST', '/apps', { token: o.key, version: VERSION,
    body: { account_id: o.accountId, name: 'Sync', base_url: 'https://sync.example.com' } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal([res.body.deployment, res.body.route, res.body.domain_id, res.body.hosted_url, res.body.domains, res.body.app_type, res.body.base_url],
    ['api_integration', null, null, null, [], 'b2b_app', 'https://sync.example.com']);
  const routeless = await patch(o.key, res.body.id, { route: freshRoute() });
  assert.is(routeless.status, 400);
  assert.is(routeless.body.error.param, 'route');
});

t('create rules: each refusal names its field and writes nothing; a taken route is a 409', async () => {
  const o = await makeOwner(app.db);
  const taken = await makeApp(app, o);
  const cases: [Record<string, unknown>, number, string][] = [
    [{ name: '' }, 400, 'name'],
    [{ route: 'A-B' }, 400, 'route'],
    [{ route: 'ab' }, 400, 'route'],
    [{ route: 'a--b' }, 400, 'route'],
    [{ route: '-abc' }, 400, 'route'],
    [{ deployment: 'hosted', route: undefined }, 400, 'route'],
    [{ deployment: 'api_integration' }, 400, 'route'],
    [{ base_url: 'http://insecure.example.com' }, 400, 'base_url'],
    [{ base_url: 'not a url' }, 400, 'base_url'],
    [{ redirect_uris: ['https://ok.example.com', 'ftp://x'] }, 400, 'redirect_uris.1'],
    [{ app_type: 'game' }, 400, 'app_type'],
    [{ route: taken.route }, 409, 'route'],
  ];
  const before = await app.db('apps').count('* as n').first();
  for (const [body, status, param] of cases) {
    const res = await app.request('POST', '/apps', { token: o.key, version: VERSION, body: { account_id: o.accountId, name: 'X', route: freshRoute(), ...body } });
    assert.is(res.status, status, JSON.stringify(body));
    assert.is(res.body.error.param, param, JSON.stringify(body));
  }
  const missing = await app.request('POST', '/apps', { token: o.key, version: VERSION, body: { account_id: o.accountId } });
  assert.is(missing.body.error.param, 'name');
  assert.equal(await app.db('apps').count('* as n').first(), before);
  assert.is((await app.db('app_domains').where({ hostname: `${taken.route}.apps.commerce.test` })).length, 1);
});

t('a route change keeps the old hostname as previous; returning to it reactivates it; another app cannot take it', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const first = a.route;
  const second = freshRoute('moved');
  const moved = await patch(o.key, a.id, { route: second, name: 'Chat 2', status: 'live' });
  assert.is(moved.status, 200, JSON.stringify(moved.body));
  assert.equal([moved.body.route, moved.body.name, moved.body.status, moved.body.hosted_url], [second, 'Chat 2', 'live', served(second)]);
  assert.equal(moved.body.domains.map((d: any) => [d.hostname, d.status]),
    [[`${second}.apps.commerce.test`, 'active'], [`${first}.apps.commerce.test`, 'previous']]);
  const domains = await get(o.key, '/domains', { app_id: a.id });
  assert.is(domains.status, 200);
  assert.equal(domains.body.data.map((d: any) => [d.app_id, d.account_id, d.hostname, d.url, d.status]), [
    [a.id, o.accountId, `${second}.apps.commerce.test`, served(second), 'active'],
    [a.id, o.accountId, `${first}.apps.commerce.test`, served(first), 'previous']]);
  const active = await get(o.key, '/domains', { app_id: a.id, status: 'active' });
  assert.equal(active.body.data.map((d: any) => d.id), [moved.body.domain_id]);

  const otherOwner = await makeOwner(app.db);
  const theirs = await makeApp(app, otherOwner);
  const refused = await patch(otherOwner.key, theirs.id, { route: first });
  assert.is(refused.status, 409);
  assert.is(refused.body.error.param, 'route');
  assert.is((await get(otherOwner.key, `/apps/${theirs.id}`)).body.route, theirs.route);

  const back = await patch(o.key, a.id, { route: first });
  assert.equal(back.body.domains.map((d: any) => [d.hostname, d.status]),
    [[`${second}.apps.commerce.test`, 'previous'], [`${first}.apps.commerce.test`, 'active']]);
  assert.is(back.body.domain_id, a.domain_id, 'the first hostname\'s domain is active again');
  const same = await patch(o.key, a.id, { route: first });
  assert.equal(same.body.domains, back.body.domains);
  const types = await app.db('events').whereRaw("data->>'id' = ?", [a.id]).orderBy('created_at').select('type');
  assert.equal(types.map((e) => e.type), ['app.created', 'app.updated', 'app.updated']);
});

t('update rules name their field and change nothing', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  for (const [body, param] of [[{ route: 'Bad Route' }, 'route'], [{ base_url: 'http://x.example.com' }, 'base_url'],
    [{ redirect_uris: ['nope'] }, 'redirect_uris.0'], [{ status: 'deleted' }, 'status'], [{ deployment: 'api_integration' }, 'deployment']] as const) {
    const res = await patch(o.key, a.id, body);
    assert.is(res.status, 400, JSON.stringify(body));
    assert.is(res.body.error.param, param);
  }
  const cleared = await patch(o.key, a.id, { description: null, base_url: 'https://api.example.com' });
  assert.equal([cleared.body.description, cleared.body.base_url], [null, 'https://api.example.com']);
  assert.equal((await get(o.key, `/apps/${a.id}`)).body.domains, a.domains);
});

t('list filters: verified (true, false, omitted), recommended, app_type, status, query; order template_usage', async () => {
  const o = await makeOwner(app.db);
  const plain = await makeApp(app, o, { name: 'Plain board', app_type: 'company_app' });
  const verified = await makeApp(app, o, { name: 'Verified chat' });
  const starred = await makeApp(app, o, { name: 'Starred chat' });
  // verified by an approved build; starred live with that build in production; template_usage by accounts made from each.
  await builtBuild(app, o, verified.id);
  const build = await builtBuild(app, o, starred.id);
  assert.is((await app.request('POST', `/app_builds/${build.id}/promote`, { token: o.key, version: VERSION })).status, 200);
  assert.is((await patch(o.key, starred.id, { status: 'live' })).status, 200);
  for (const [blueprint, count] of [[starred.id, 5], [verified.id, 2]] as const) {
    for (let i = 0; i < count; i++) {
      const made = await app.request('POST', '/accounts', { token: o.token, version: VERSION, body: { title: `From ${blueprint}`, blueprint_id: blueprint } });
      assert.is(made.status, 201, JSON.stringify(made.body));
    }
  }
  const ids = async (query: Record<string, unknown>, version = VERSION) => {
    const res = await get(o.key, '/apps', { account_id: o.accountId, ...query }, version);
    assert.is(res.status, 200, JSON.stringify(res.body));
    return res.body.data.map((a: any) => a.id);
  };
  assert.equal(await ids({}), [starred.id, verified.id, plain.id]);
  assert.equal(await ids({ verified: true }), [starred.id, verified.id]);
  assert.equal(await ids({ verified: false }), [plain.id]);
  assert.equal(await ids({ recommended: true }), [starred.id]);
  assert.equal(await ids({ recommended: false }), [verified.id, plain.id]);
  assert.equal(await ids({ app_type: 'company_app' }), [plain.id]);
  assert.equal(await ids({ status: 'live' }), [starred.id]);
  assert.equal(await ids({ query: 'CHAT' }), [starred.id, verified.id]);
  assert.equal(await ids({ order: 'template_usage' }), [starred.id, verified.id, plain.id]);
  assert.equal(await ids({ order: 'template_usage', direction: 'asc' }), [plain.id, verified.id, starred.id]);
  const page = await get(o.key, '/apps', { account_id: o.accountId, order: 'template_usage', first: 2 });
  const rest = await get(o.key, '/apps', { account_id: o.accountId, order: 'template_usage', first: 2, after: page.body.page_info.end_cursor });
  assert.equal(rest.body.data.map((a: any) => a.id), [plain.id]);
  for (const [query, param] of [[{ verified: 'maybe' }, 'verified'], [{ order: 'installs' }, 'order'], [{ app_type: 'x' }, 'app_type'], [{ verified_apps_only: true }, 'verified_apps_only']] as const) {
    const res = await get(o.key, '/apps', { account_id: o.accountId, ...query });
    assert.is(res.status, 400, JSON.stringify(query));
    assert.is(res.body.error.param, param);
  }

  // Before entry 36: verified_apps_only true narrows to verified apps; false or omitted lists both; verified is unknown.
  assert.equal(await ids({ verified_apps_only: true }, BEFORE_36), [starred.id, verified.id]);
  assert.equal(await ids({ verified_apps_only: false }, BEFORE_36), [starred.id, verified.id, plain.id]);
  assert.equal(await ids({}, BEFORE_36), [starred.id, verified.id, plain.id]);
  const old = await get(o.key, '/apps', { account_id: o.accountId, verified: false }, BEFORE_36);
  assert.is(old.status, 400);
  assert.is(old.body.error.param, 'verified');
});

t('another account never sees or changes your apps or domains (404); scopes are checked (403)', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const stranger = await makeOwner(app.db);
  for (const res of [
    await get(stranger.key, `/apps/${a.id}`),
    await patch(stranger.key, a.id, { name: 'Mine now' }),
    await get(stranger.key, '/domains', { app_id: a.id }),
    await get(stranger.key, '/apps', { account_id: o.accountId }),
  ]) {
    assert.is(res.status, 404, JSON.stringify(res.body));
    assert.is(res.body.error.type, 'not_found');
  }
  assert.is((await get(stranger.key, '/domains', { app_id: a.id })).body.error.param, 'app_id');
  const all = await get(stranger.key, '/apps');
  assert.ok(!all.body.data.some((x: any) => x.id === a.id));
  const allDomains = await get(stranger.key, '/domains');
  assert.ok(!allDomains.body.data.some((x: any) => x.app_id === a.id));
  assert.is((await get(o.key, `/apps/${a.id}`)).body.name, 'Chat');

  const reader = await keyWith(app.db, o.accountId, ['developer:basic:read']);
  assert.is((await get(reader, `/apps/${a.id}`)).status, 200);
  assert.is((await patch(reader, a.id, { name: 'x' })).status, 403);
  const create = await app.request('POST', '/apps', { token: reader, version: VERSION, body: { account_id: o.accountId, name: 'x', route: freshRoute() } });
  assert.is(create.status, 403);
  const none = await keyWith(app.db, o.accountId, ['payment:basic:read']);
  assert.is((await get(none, `/apps/${a.id}`)).status, 403);
  assert.is((await get(none, '/domains', { account_id: o.accountId })).status, 403);
  assert.is((await get(o.key, '/apps/app_doesnotexist')).status, 404);
});

t('before entry 2 an app shows previous_hosted_urls (newest first) and no domains; GET /domains did not exist', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const second = freshRoute('b');
  const third = freshRoute('c');
  await patch(o.key, a.id, { route: second });
  await patch(o.key, a.id, { route: third });
  const old = await get(o.key, `/apps/${a.id}`, undefined, BEFORE_2);
  assert.is(old.status, 200);
  assert.equal(old.body.previous_hosted_urls, [served(second), served(a.route)]);
  assert.is(old.body.domains, undefined);
  assert.is(old.body.hosted_url, served(third));
  const head = await get(o.key, `/apps/${a.id}`);
  assert.is(head.body.previous_hosted_urls, undefined);
  assert.is(head.body.domains.length, 3);
  const listed = await get(o.key, '/apps', { account_id: o.accountId }, BEFORE_2);
  assert.equal(listed.body.data[0].previous_hosted_urls, old.body.previous_hosted_urls);
  const oldPatch = await patch(o.key, a.id, { name: 'Renamed' }, BEFORE_2);
  assert.equal([oldPatch.body.name, oldPatch.body.previous_hosted_urls], ['Renamed', old.body.previous_hosted_urls]);
  const noDomains = await get(o.key, '/domains', { app_id: a.id }, BEFORE_2);
  assert.is(noDomains.status, 404);
  const fresh = await makeApp(app, o);
  assert.equal((await get(o.key, `/apps/${fresh.id}`, undefined, BEFORE_2)).body.previous_hosted_urls, []);
});

t('two apps claiming one route at once: exactly one gets it, the other a 409 (no 500)', async () => {
  const o = await makeOwner(app.db);
  const route = freshRoute('race');
  const results = await Promise.all([1, 2, 3].map(() => app.request('POST', '/apps', { token: o.key, version: VERSION,
    body: { account_id: o.accountId, name: 'Racer', route } })));
  assert.equal(results.map((r) => r.status).sort(), [201, 409, 409]);
  assert.is((await app.db('apps').where({ account_id: o.accountId })).length, 1, 'the refused requests wrote nothing');
  assert.is((await app.db('app_domains').where({ hostname: `${route}.apps.commerce.test` })).length, 1);
});

t.run();
