import { suite } from 'uvu';
import { connect } from 'node:net';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { specData } from '../../generated/spec-data.js';
import { assertError, assertNoLeak, send } from './envelope.js';
import { startEchoServer } from './echo-operation.js';

const t = suite('runtime: error envelope, request ids, version echo');
let app: TestApp;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let o: Awaited<ReturnType<typeof makeOwner>>;

const VERSIONS = specData.versions as readonly string[]; // newest first
const HEAD = VERSIONS[0];
const OLDEST = VERSIONS[VERSIONS.length - 1];

t.before(async () => {
  app = await startTestApp();
  echo = await startEchoServer(app.db);
  o = await makeOwner(app.db);
});
t.after(async () => {
  await echo.close();
  await app.close();
});

const auth = () => ({ authorization: `Bearer ${o.key}` });

t('an unknown route under the base path is a 404 envelope', async () => {
  const res = await send(`${app.url}/no_such_things/x`, { headers: auth() });
  assertError(res, 404, 'not_found', null);
  assert.match(res.body.error.message, 'GET /api/v1/no_such_things/x');
});

t('an unknown route outside the base path is a 404 envelope too', async () => {
  const res = await send(`${echo.url}/favicon.ico`);
  assertError(res, 404, 'not_found');
});

t('routing comes before credentials: an unknown path is a 404 and a wrong method a 405 with Allow, with or without a key', async () => {
  for (const headers of [auth(), {}]) {
    const unknown = await send(`${app.url}/no_such_things/x`, { headers });
    assertError(unknown, 404, 'not_found');
    assert.match(unknown.body.error.message, 'Unrecognized request URL (GET /api/v1/no_such_things/x)');
    const wrong = await send(`${app.url}/accounts/${o.accountId}`, { method: 'PUT', headers });
    assertError(wrong, 405, 'method_not_allowed');
    assert.is(wrong.headers.get('allow'), 'GET, HEAD, OPTIONS, PATCH');
  }
  // The right method without credentials is then a 401 that says how to authenticate.
  const anonymous = await send(`${app.url}/accounts/${o.accountId}`);
  assertError(anonymous, 401, 'authentication_required');
  assert.is(anonymous.headers.get('www-authenticate'), 'Bearer realm="api"');
  const options = await send(`${app.url}/accounts/${o.accountId}`, { method: 'OPTIONS' });
  assert.is(options.status, 204);
  assert.is(options.headers.get('allow'), 'GET, HEAD, OPTIONS, PATCH');
});

t('an API key or user token sent without Bearer is told to add it', async () => {
  for (const [secret, what] of [['sk_abc123', 'an API key'], ['utok_abc123', 'a user token']]) {
    const res = await send(`${app.url}/accounts/${o.accountId}`, { headers: { authorization: secret } });
    assertError(res, 401, 'authentication_required');
    assert.match(res.body.error.message, `Send ${what} as Authorization: Bearer <secret>`);
  }
});

t('every error carries error.request_id equal to the Request-Id header, and each request gets its own', async () => {
  const seen = new Set<string>();
  const cases = [
    await send(`${app.url}/accounts/biz_x`),
    await send(`${app.url}/accounts/biz_x`, { headers: { authorization: 'Bearer sk_nope' } }),
    await send(`${app.url}/accounts/biz_missing`, { headers: auth() }),
    await send(`${app.url}/accounts?first=abc`, { headers: auth() }),
    await send(`${app.url}/accounts`, { headers: { ...auth(), 'api-version-date': 'soon' } }),
  ];
  const expected = [[401, 'authentication_required'], [401, 'authentication_required'], [404, 'not_found'],
    [400, 'invalid_request'], [400, 'invalid_request']] as const;
  cases.forEach((res, i) => {
    assertError(res, expected[i][0], expected[i][1]);
    seen.add(res.body.error.request_id);
  });
  assert.is(seen.size, cases.length);
});

t('a success carries a Request-Id header too', async () => {
  const res = await send(`${app.url}/accounts/${o.accountId}`, { headers: auth() });
  assert.is(res.status, 200);
  assert.match(res.headers.get('request-id') ?? '', /^req_[A-Za-z0-9_-]{16}$/);
});

t('an unexpected failure in a handler is a 500 api_error with no stack, message or detail of the cause', async () => {
  const res = await send(`${echo.base}/test_fail`, { headers: auth() });
  assertError(res, 500, 'api_error', null);
  assert.not.match(res.body.error.message, /undefined|reading|TypeError|row/);
  assert.is(res.headers.get('x-should-retry'), 'true');
});

t('bad percent-encoding in a path id is taken literally: no such account, a 404 naming id', async () => {
  for (const id of ['%E0%A4%A', '%', '%zz']) {
    const res = await send(`${app.url}/accounts/${id}`, { headers: auth() });
    assertError(res, 404, 'not_found', 'id');
  }
});

t('a URL or headers over Node\'s size limit get the 400 envelope, not a bare status line', async () => {
  const url = await send(`${app.url}/accounts?query=${'a'.repeat(20_000)}`, { headers: auth() });
  assertError(url, 400, 'invalid_request', null);
  assert.match(url.body.error.message, 'too large');
  const header = await send(`${app.url}/accounts`, { headers: { ...auth(), 'x-padding': 'p'.repeat(20_000) } });
  assertError(header, 400, 'invalid_request');
});

t('bytes that are not HTTP get the 400 envelope before the connection closes', async () => {
  const { port } = new URL(app.url);
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write('HELLO THERE\r\n\r\n'));
    let text = '';
    socket.on('data', (d) => { text += d.toString(); });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  const [head, body] = raw.split('\r\n\r\n');
  assert.match(head, /^HTTP\/1\.1 400 /);
  const requestId = /\r\nRequest-Id: (req_[\w-]+)/.exec(head)?.[1];
  assert.equal(JSON.parse(body), { error: { type: 'invalid_request', message: 'The request is not well-formed HTTP', request_id: requestId } });
});

t('a malformed Authorization header is a 401 envelope that does not echo internals', async () => {
  const res = await send(`${app.url}/accounts`, { headers: { authorization: 'Bearer a b c' } });
  assertError(res, 401, 'authentication_required');
  assertNoLeak(res);
});

t('version: none given and no pin (a user token) -> the oldest version, echoed in Api-Version-Date', async () => {
  const res = await send(`${app.url}/accounts/${o.accountId}`, { headers: { authorization: `Bearer ${o.token}` } });
  assert.is(res.status, 200, res.text);
  assert.is(res.headers.get('api-version-date'), OLDEST);
});

t('version: a key pinned to a version gets it without the header; the header overrides the pin', async () => {
  const pinned = await makeKey(app.db, { accountId: o.accountId, role: 'admin', apiVersionDate: VERSIONS[1] });
  const url = `${app.url}/accounts/${o.accountId}`;
  const byPin = await send(url, { headers: { authorization: `Bearer ${pinned.secret}` } });
  assert.is(byPin.headers.get('api-version-date'), VERSIONS[1]);
  const byHeader = await send(url, { headers: { authorization: `Bearer ${pinned.secret}`, 'api-version-date': OLDEST } });
  assert.is(byHeader.headers.get('api-version-date'), OLDEST);
});

t('version: a listed version is echoed as given', async () => {
  for (const v of [HEAD, OLDEST]) {
    const res = await send(`${app.url}/accounts/${o.accountId}`, { headers: { ...auth(), 'api-version-date': v } });
    assert.is(res.status, 200, res.text);
    assert.is(res.headers.get('api-version-date'), v);
  }
});

t('version: a date between versions resolves to the version in force on it; a future date to the newest', async () => {
  const older = VERSIONS[1];
  const dayAfter = new Date(Date.parse(`${older}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  assert.ok(dayAfter < HEAD, 'the fixture needs two versions at least two days apart');
  const between = await send(`${app.url}/accounts/${o.accountId}`, { headers: { ...auth(), 'api-version-date': dayAfter } });
  assert.is(between.headers.get('api-version-date'), older);
  const future = await send(`${app.url}/accounts/${o.accountId}`, { headers: { ...auth(), 'api-version-date': '2099-12-31' } });
  assert.is(future.headers.get('api-version-date'), HEAD);
});

t('version: echoed on error responses after authentication too', async () => {
  const res = await send(`${app.url}/accounts/biz_missing`, { headers: { ...auth(), 'api-version-date': HEAD } });
  assertError(res, 404, 'not_found');
  assert.is(res.headers.get('api-version-date'), HEAD);
});

t('version: an ill-formed or impossible date, or one before the first version, is a 400 naming the header', async () => {
  for (const v of ['yesterday', '2026-13-01', '2026-02-30', '1999-01-01', '2026-09-06T00:00:00Z']) {
    const res = await send(`${app.url}/accounts/${o.accountId}`, { headers: { ...auth(), 'api-version-date': v } });
    assertError(res, 400, 'invalid_request', 'Api-Version-Date');
  }
});

t.run();
