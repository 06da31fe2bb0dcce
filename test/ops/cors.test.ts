// CORS over HTTP: only client-id operations answer it; the preflight answers for the operation, the request itself
// for the origins the account allows (allowed_origins, set with PATCH /accounts/{id}).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';

const HEAD = '2026-09-06';
const t = suite('ops: CORS for client-id operations');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const card = { card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' } };
const clientIdOf = async (accountId: string) => (await app.db('accounts').where({ id: accountId }).first('client_id')).client_id as string;

function tokenFrom(origin: string, clientId: string) {
  return app.request('POST', '/confirmation_tokens', { token: clientId, version: HEAD, body: card, headers: { origin } });
}

t('a preflight for a client-id operation is answered for any origin, with methods, headers and max age', async () => {
  const res = await fetch(`${app.url}/confirmation_tokens`, {
    method: 'OPTIONS',
    headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });
  assert.is(res.status, 204);
  assert.is(res.headers.get('access-control-allow-origin'), 'https://shop.example');
  assert.is(res.headers.get('access-control-allow-methods'), 'POST');
  const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
  for (const h of ['authorization', 'content-type', 'api-version-date', 'idempotency-key']) assert.ok(allowed.includes(h), h);
  assert.is(res.headers.get('access-control-max-age'), '600');
  assert.match(res.headers.get('vary') ?? '', 'Origin');
  assert.is(res.headers.get('allow'), 'OPTIONS, POST');
});

t('API-key operations never answer CORS: neither the preflight nor the request', async () => {
  const o = await makeOwner(app.db);
  const pre = await fetch(`${app.url}/accounts/${o.accountId}`, {
    method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
  });
  assert.is(pre.status, 204);
  assert.ok(pre.headers.get('allow'));
  for (const [name] of pre.headers) assert.not.match(name, /^access-control-/, name);
  const res = await app.request('GET', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, headers: { origin: 'https://shop.example' } });
  assert.is(res.status, 200);
  for (const [name] of res.headers) assert.not.match(name, /^access-control-/, name);
});

t('by default an account allows any origin: the response carries the page\'s origin and the readable headers', async () => {
  const o = await makeOwner(app.db);
  const me = await app.request('GET', '/accounts/me', { token: o.key, version: HEAD });
  assert.equal(me.body.allowed_origins, ['*']);
  const res = await tokenFrom('https://anywhere.example', await clientIdOf(o.accountId));
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(res.headers.get('access-control-allow-origin'), 'https://anywhere.example');
  assert.match(res.headers.get('access-control-expose-headers') ?? '', 'Request-Id');
  assert.match(res.headers.get('vary') ?? '', 'Origin');
});

t('with allowed_origins set, a listed origin is served and another is refused (403, readable by the page)', async () => {
  const o = await makeOwner(app.db);
  const clientId = await clientIdOf(o.accountId);
  const patch = await app.request('PATCH', `/accounts/${o.accountId}`, {
    token: o.key, version: HEAD, body: { allowed_origins: ['https://Shop.example', 'http://localhost:5173', 'https://shop.example'] },
  });
  assert.is(patch.status, 200, JSON.stringify(patch.body));
  assert.equal(patch.body.allowed_origins, ['https://shop.example', 'http://localhost:5173']);

  const ok = await tokenFrom('http://localhost:5173', clientId);
  assert.is(ok.status, 201);
  assert.is(ok.headers.get('access-control-allow-origin'), 'http://localhost:5173');

  const tokensBefore = Number((await app.db('confirmation_tokens').count('* as n'))[0].n);
  const refused = await tokenFrom('https://evil.example', clientId);
  assert.is(refused.status, 403);
  assert.is(refused.body.error.type, 'permission_denied');
  assert.match(refused.body.error.message, 'https://evil.example');
  assert.is(refused.headers.get('access-control-allow-origin'), 'https://evil.example', 'the page may read why');
  assert.is(Number((await app.db('confirmation_tokens').count('* as n'))[0].n), tokensBefore, 'nothing was created');

  // A server calling without Origin is not a browser: CORS does not apply.
  assert.is((await app.request('POST', '/confirmation_tokens', { token: clientId, version: HEAD, body: card })).status, 201);

  // An empty list refuses every page; ["*"] opens it again, at once (the cached client id is invalidated).
  await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { allowed_origins: [] } });
  assert.is((await tokenFrom('https://shop.example', clientId)).status, 403);
  await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { allowed_origins: ['*'] } });
  assert.is((await tokenFrom('https://evil.example', clientId)).status, 201);
});

t('an unknown client id from a page is a 401 the page can read', async () => {
  const res = await tokenFrom('https://shop.example', 'client_unknown');
  assert.is(res.status, 401);
  assert.is(res.headers.get('access-control-allow-origin'), 'https://shop.example');
});

t('allowed_origins takes origins only: a path, a bare host or too many are 400s naming the field', async () => {
  const o = await makeOwner(app.db);
  for (const bad of [['https://shop.example/'], ['shop.example'], ['https://shop.example/checkout'], ['ftp://shop.example'],
    Array.from({ length: 51 }, (_, i) => `https://s${i}.example`)]) {
    const res = await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { allowed_origins: bad } });
    assert.is(res.status, 400, JSON.stringify(bad));
    assert.match(res.body.error.param, /^allowed_origins/);
  }
});

t.run();
