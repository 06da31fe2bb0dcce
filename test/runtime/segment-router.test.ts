// Routes looked up by first segment: every route still matches exactly what it matched in one flat router.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Koa from 'koa';
import type { Server } from 'node:http';
import { segmentRouter } from '../../runtime/segment-router.js';
import type { ApiContext } from '../../runtime/request-state.js';

const t = suite('runtime: routes by first segment');
let server: Server;
let base = '';

t.before(async () => {
  const app = new Koa();
  const answer = (name: string) => async (ctx: ApiContext) => { ctx.body = { name, params: ctx.params }; };
  app.use(segmentRouter('/api/v1', [
    { method: 'GET', path: '/widgets', handle: answer('list') },
    { method: 'GET', path: '/widgets/:id', handle: answer('retrieve') },
    { method: 'POST', path: '/widgets/:id/archive', handle: answer('archive') },
    { method: 'GET', path: '/gadgets/:id', handle: answer('gadget') },
    { method: 'GET', path: '/:anything/summary', handle: answer('summary') },
    // Two routes on one path and method: the first passes the request on (an operation absent at a version).
    { method: 'GET', path: '/moved/:id', handle: async (ctx, next) => { if (ctx.params?.id === 'pass') return next(); ctx.body = { name: 'first', params: ctx.params }; } },
    { method: 'GET', path: '/moved/:key', handle: answer('second') },
  ]).middleware);
  app.use((ctx) => { ctx.status = 404; ctx.body = { name: 'none' }; });
  server = app.listen(0);
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
t.after(() => { server.close(); });

const call = async (method: string, path: string) => (await fetch(`${base}${path}`, { method })).json();

t('each route answers its own method and path, with its parameters', async () => {
  assert.equal(await call('GET', '/api/v1/widgets'), { name: 'list', params: {} });
  assert.equal(await call('GET', '/api/v1/widgets/w_1'), { name: 'retrieve', params: { id: 'w_1' } });
  assert.equal(await call('POST', '/api/v1/widgets/w_1/archive'), { name: 'archive', params: { id: 'w_1' } });
  assert.equal(await call('GET', '/api/v1/gadgets/g_1'), { name: 'gadget', params: { id: 'g_1' } });
});

t('a route starting with a parameter matches under every segment, known or not', async () => {
  assert.equal(await call('GET', '/api/v1/widgets/summary'), { name: 'retrieve', params: { id: 'summary' } });
  assert.equal(await call('GET', '/api/v1/gadgets/summary'), { name: 'gadget', params: { id: 'summary' } });
  assert.equal(await call('GET', '/api/v1/unknown/summary'), { name: 'summary', params: { anything: 'unknown' } });
});

t('what matches nothing goes on: another method, another segment, outside the prefix', async () => {
  assert.equal(await call('DELETE', '/api/v1/widgets'), { name: 'none' });
  assert.equal(await call('GET', '/api/v1/nothing/here'), { name: 'none' });
  assert.equal(await call('GET', '/widgets'), { name: 'none' });
});

t('static segments match exactly, one trailing slash is allowed, parameters are percent-decoded', async () => {
  assert.equal(await call('GET', '/api/v1/WIDGETS/w_1'), { name: 'none' });
  assert.equal(await call('POST', '/api/v1/widgets/w_1/ARCHIVE'), { name: 'none' });
  assert.equal(await call('GET', '/api/v1/widgets/W_1'), { name: 'retrieve', params: { id: 'W_1' } });
  assert.equal(await call('GET', '/api/v1/widgets/'), { name: 'list', params: {} });
  assert.equal(await call('GET', '/api/v1/widgets/w_1/'), { name: 'retrieve', params: { id: 'w_1' } });
  assert.equal(await call('GET', '/api/v1/widgets/a%20b'), { name: 'retrieve', params: { id: 'a b' } });
  assert.equal(await call('GET', '/api/v1/widgets/%E0%A4%A'), { name: 'retrieve', params: { id: '%E0%A4%A' } });
  assert.equal(await call('GET', '/api/v1/widgets//'), { name: 'none' });
  assert.equal(await call('GET', '/api/v1/widgets/w_1//'), { name: 'none' });
});

t('HEAD is answered by GET routes', async () => {
  const head = await fetch(`${base}/api/v1/widgets/w_1`, { method: 'HEAD' });
  assert.is(head.status, 200);
});

t('routes matching one path run in registration order, each may pass the request on', async () => {
  assert.equal(await call('GET', '/api/v1/moved/m_1'), { name: 'first', params: { id: 'm_1' } });
  assert.equal(await call('GET', '/api/v1/moved/pass'), { name: 'second', params: { id: 'pass', key: 'pass' } });
});

t('the lookups name methods and routes at a path', () => {
  const router = segmentRouter('/api/v1', [
    { method: 'GET', path: '/widgets/:id', handle: async () => {}, name: 'retrieveWidget' },
    { method: 'POST', path: '/widgets/:id', handle: async () => {}, name: 'updateWidget' },
    { method: 'GET', path: '/widgets/special', handle: async () => {}, name: 'special' },
  ]);
  assert.equal(router.methodsAt('/api/v1/widgets/w_1'), ['GET', 'HEAD', 'POST']);
  assert.equal(router.methodsAt('/api/v1/nothing'), []);
  assert.is(router.routeNameAt('/api/v1/widgets/w_1', 'POST'), 'updateWidget');
  // registration order, as before: the parameter route was declared first
  assert.is(router.routeNameAt('/api/v1/widgets/special', 'GET'), 'retrieveWidget');
  assert.is(router.routeNameAt('/api/v1/widgets/w_1', 'DELETE'), undefined);
});

t.run();
