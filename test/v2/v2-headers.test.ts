// The v2 API's headers on success and on every kind of error, Sunset where a route announces one, and the
// migration guide generated from the route map.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { startServer, type RunningServer } from '../../runtime/server.js';
import { operations } from '../../generated/routes.js';
import { v2Routes, v2Settings } from '../../generated/v2-routes.js';
import { v2Api } from '../../runtime/v2/legacy-api.js';
import { v2, expectV2Headers, expectError, expectOk } from './support.js';

let app: TestApp;
test.before(async () => { app = await startTestApp(); });
test.after(async () => { await app.close(); });

test('GET /company is the key\'s account, rendered at the v2 version, with the headers', async () => {
  const o = await makeOwner(app.db);
  const res = await v2(app, 'GET', '/company', { token: o.key });
  expectOk(res);
  assert.is(res.body.id, o.accountId);
  expectV2Headers(app, res, '/accounts/me');
  assert.is(res.headers.get('sunset'), null);
  // The same account through the Current API at the v2 render version is the same object.
  const current = await app.request('GET', '/accounts/me', { token: o.key, version: v2Settings.renderVersion });
  assert.equal(res.body, current.body);
});

test('a 401 carries the headers', async () => {
  const res = await v2(app, 'GET', '/company', { token: 'sk_nope' });
  expectError(res, 401, 'authentication_required');
  expectV2Headers(app, res, '/accounts/me');
});

test('an unknown v2 route is a 404 with the headers, its successor the Current API root', async () => {
  const o = await makeOwner(app.db);
  const res = await v2(app, 'GET', '/nothing_here', { token: o.key });
  expectError(res, 404, 'not_found');
  assert.match(res.body.error.message, v2Settings.guidePath);
  expectV2Headers(app, res, '');
});

test('a 400 from v2 paging names the v2 parameter and carries the headers', async () => {
  const o = await makeOwner(app.db);
  const res = await v2(app, 'GET', '/access_passes', { token: o.key, query: { company_id: o.accountId, per: 0 } });
  expectError(res, 400, 'invalid_request', 'per');
  expectV2Headers(app, res, `/products?account_id=${o.accountId}`);
  const bad = await v2(app, 'GET', '/access_passes', { token: o.key, query: { company_id: o.accountId, page: 'two' } });
  expectError(bad, 400, 'invalid_request', 'page');
});

test('a Current validation error about a renamed field names the v2 field', async () => {
  const o = await makeOwner(app.db);
  const res = await v2(app, 'GET', '/access_passes', { token: o.key, query: { company_id: 'not-an-id' } });
  expectError(res, 400, 'invalid_request', 'company_id');
  expectV2Headers(app, res, '/products?account_id=not-an-id');
});

test('a route with a sunset date answers Sunset as an HTTP date', async () => {
  const company = v2Routes.find((r) => r.v2Path === '/company')!;
  let server: RunningServer | null = null;
  try {
    server = await startServer({
      db: app.db, databaseUrl: '', operations, tasks: {}, port: 0, worker: false,
      mounts: [({ db, operations: ops }) => v2Api({ db, operations: ops, settings: v2Settings, routes: [{ ...company, sunset: '2027-03-01' }] })],
    });
    const o = await makeOwner(app.db);
    const res = await fetch(`${server.url}/api/v2/company`, { headers: { authorization: `Bearer ${o.key}` } });
    assert.is(res.status, 200);
    assert.is(res.headers.get('sunset'), 'Mon, 01 Mar 2027 00:00:00 GMT');
    assert.is(res.headers.get('deprecation'), `@${v2Settings.deprecatedAt}`);
    // Errors on that route carry it too.
    const refused = await fetch(`${server.url}/api/v2/company`);
    assert.is(refused.status, 401);
    assert.is(refused.headers.get('sunset'), 'Mon, 01 Mar 2027 00:00:00 GMT');
  } finally {
    await server?.close();
  }
});

test('the migration guide is served without credentials and lists every v2 route with its Current operation', async () => {
  const res = await fetch(`${app.server.url}${v2Settings.guidePath}`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', 'text/html');
  const html = await res.text();
  for (const route of v2Routes) {
    assert.ok(html.includes(`<code>${route.method} ${v2Settings.basePath}${route.v2Path}</code>`), `${route.method} ${route.v2Path} missing`);
    assert.ok(html.includes(`${route.currentMethod} /api/v1${route.currentPath}`), `${route.currentPath} missing`);
  }
  assert.match(html, 'has_next_page');
});

test.run();
