// The API lane (runtime/api-lane.ts) serves the Current API's operations without Koa: every answer must be the one
// Koa gives. One app, two servers on it: its listener (the lane for operations) and Koa's own callback. The same
// requests go to both; status, headers and body must agree (but for the request's id and the date), and a request
// the lane takes must not make a Koa context at all.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { createApp, type App } from '../../runtime/app.js';
import { operations } from '../../generated/routes.js';
import { extraRoutes, mounts } from '../../wiring/routes.js';
import { createLogger } from '../../runtime/logger.js';
import { headVersion } from '../../runtime/versions.js';

const t = suite('runtime: the API lane answers as Koa does');
let app: TestApp;
let served: App;
const servers: Server[] = [];
let lane = '';
let koa = '';
let koaContexts = 0;

const listen = async (listener: Parameters<typeof createServer>[1]) => {
  const server = createServer(listener!).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

t.before(async () => {
  app = await startTestApp();
  served = createApp({ db: app.db, operations, extraRoutes, mounts, logger: createLogger() });
  const createContext = served.koa.createContext.bind(served.koa);
  served.koa.createContext = (req, res) => {
    koaContexts++;
    return createContext(req, res);
  };
  lane = await listen(served.listener);
  koa = await listen(served.koa.callback());
});
t.after(async () => {
  for (const server of servers) server.close();
  await app.close();
});

interface Sent { method: string; path: string; headers?: Record<string, string>; body?: string }
interface Answer { status: number; headers: Record<string, string>; body: string }

const DIFFERING = new Set(['date', 'request-id']);

async function send(origin: string, r: Sent): Promise<Answer> {
  const res = await fetch(`${origin}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => { if (!DIFFERING.has(name)) headers[name] = value; });
  // The error envelope names the request: another id on each side.
  const body = (await res.text()).replace(/"request_id":"req_[\w-]+"/g, '"request_id":"…"');
  return { status: res.status, headers, body };
}

/** Sends `r` to both servers; their answers, which must be the same. */
async function same(r: Sent, described: string): Promise<Answer> {
  const before = koaContexts;
  const viaLane = await send(lane, r);
  const laneMadeKoaContexts = koaContexts - before;
  const viaKoa = await send(koa, r);
  assert.equal(viaLane, viaKoa, `${described}: the lane's answer and Koa's`);
  return { ...viaLane, headers: { ...viaLane.headers, 'x-koa-contexts': String(laneMadeKoaContexts) } };
}

t('reads, lists, creates, errors and the OpenAPI document answer alike, and the lane makes no Koa context', async () => {
  const o = await makeOwner(app.db);
  const auth = { authorization: `Bearer ${o.key}`, 'api-version-date': headVersion() };
  const json = { ...auth, 'content-type': 'application/json' };

  const read = await same({ method: 'GET', path: `/api/v1/accounts/${o.accountId}`, headers: auth }, 'a read');
  assert.is(read.status, 200);
  assert.is(read.headers['content-type'], 'application/json; charset=utf-8');
  assert.is(read.headers['x-koa-contexts'], '0', 'the lane served the read without Koa');

  // Creates differ by their ids and times: each side makes its own, then both read the first one.
  const created = await send(lane, { method: 'POST', path: '/api/v1/products', headers: { ...json, 'idempotency-key': 'lane-1' },
    body: JSON.stringify({ account_id: o.accountId, title: 'Lane' }) });
  const createdByKoa = await send(koa, { method: 'POST', path: '/api/v1/products', headers: { ...json, 'idempotency-key': 'koa-1' },
    body: JSON.stringify({ account_id: o.accountId, title: 'Lane' }) });
  assert.is(created.status, 201);
  assert.equal(Object.keys(created.headers).sort(), Object.keys(createdByKoa.headers).sort());
  const product = JSON.parse(created.body);
  assert.equal(Object.keys(product).sort(), Object.keys(JSON.parse(createdByKoa.body)).sort());

  const cases: [string, Sent, number][] = [
    ['a retrieve of what the lane created', { method: 'GET', path: `/api/v1/products/${product.id}`, headers: auth }, 200],
    ['a list with a query', { method: 'GET', path: `/api/v1/products?account_id=${o.accountId}&first=1`, headers: auth }, 200],
    ['a replayed create (same key, same body)', { method: 'POST', path: '/api/v1/products', headers: { ...json, 'idempotency-key': 'lane-1' },
      body: JSON.stringify({ account_id: o.accountId, title: 'Lane' }) }, 201],
    ['an update', { method: 'PATCH', path: `/api/v1/products/${product.id}`, headers: json, body: JSON.stringify({ title: 'Lane 2' }) }, 200],
    ['a parameter given twice', { method: 'GET', path: `/api/v1/products?account_id=${o.accountId}&account_id=${o.accountId}`, headers: auth }, 400],
    ['an invalid query value', { method: 'GET', path: `/api/v1/products?account_id=${o.accountId}&first=many`, headers: auth }, 400],
    ['a body that is not JSON', { method: 'POST', path: '/api/v1/products', headers: json, body: '{"title":' }, 400],
    ['a body of another type', { method: 'POST', path: '/api/v1/products', headers: { ...auth, 'content-type': 'text/plain' }, body: 'x' }, 400],
    ['a missing object', { method: 'GET', path: '/api/v1/products/prod_missing', headers: auth }, 404],
    ['an encoded path parameter', { method: 'GET', path: '/api/v1/products/prod%20x%2Fy', headers: auth }, 404],
    ['no credential', { method: 'GET', path: `/api/v1/accounts/${o.accountId}` }, 401],
    ['an unknown path', { method: 'GET', path: '/api/v1/no_such_things', headers: auth }, 404],
    ['a method the path does not answer', { method: 'PUT', path: `/api/v1/products/${product.id}`, headers: json, body: '{}' }, 405],
    ['the OpenAPI document', { method: 'GET', path: '/api/v1/openapi.json' }, 200],
  ];
  for (const [described, r, status] of cases) {
    const answer = await same(r, described);
    assert.is(answer.status, status, described);
    assert.is(answer.headers['x-koa-contexts'], '0', `${described}: served by the lane`);
  }
  // A delete is not repeatable: each side deletes its own product.
  const byKoa = JSON.parse(createdByKoa.body).id as string;
  const deleted = await send(lane, { method: 'DELETE', path: `/api/v1/products/${product.id}`, headers: auth });
  const deletedByKoa = await send(koa, { method: 'DELETE', path: `/api/v1/products/${byKoa}`, headers: auth });
  assert.is(deleted.status, 200);
  assert.equal(deleted, JSON.parse(JSON.stringify(deletedByKoa).replaceAll(byKoa, product.id)), 'a delete');
  const etag = (await send(lane, { method: 'GET', path: '/api/v1/openapi.json' })).headers.etag;
  const unchanged = await same({ method: 'GET', path: '/api/v1/openapi.json', headers: { 'if-none-match': etag } }, 'a conditional GET');
  assert.is(unchanged.status, 304);
  assert.is(unchanged.body, '');
});

t('what the lane leaves to Koa still answers, through Koa', async () => {
  const o = await makeOwner(app.db);
  const passed: [string, Sent][] = [
    ['HEAD', { method: 'HEAD', path: `/api/v1/accounts/${o.accountId}`, headers: { authorization: `Bearer ${o.key}` } }],
    ['a preflight', { method: 'OPTIONS', path: '/api/v1/confirmation_tokens', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } }],
    ['a page\'s request (an Origin)', { method: 'GET', path: `/api/v1/accounts/${o.accountId}`, headers: { authorization: `Bearer ${o.key}`, origin: 'https://shop.example' } }],
    ['a path outside the API', { method: 'GET', path: '/health' }],
  ];
  for (const [described, r] of passed) {
    const answer = await same(r, described);
    assert.is(answer.headers['x-koa-contexts'], '1', `${described}: served by Koa`);
  }
});

t.run();
