// Routes looked up by first segment: every route still matches exactly what it matched in one flat router.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Koa from 'koa';
import type { Server } from 'node:http';
import { segmentRouter } from '../../runtime/segment-router.js';

const t = suite('runtime: routes by first segment');
let server: Server;
let base = '';

t.before(async () => {
  const app = new Koa();
  const answer = (name: string) => async (ctx: Koa.Context) => { ctx.body = { name, params: ctx.params }; };
  app.use(segmentRouter('/api/v1', [
    { method: 'GET', path: '/widgets', handle: answer('list') },
    { method: 'GET', path: '/widgets/:id', handle: answer('retrieve') },
    { method: 'POST', path: '/widgets/:id/archive', handle: answer('archive') },
    { method: 'GET', path: '/gadgets/:id', handle: answer('gadget') },
    { method: 'GET', path: '/:anything/summary', handle: answer('summary') },
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

t.run();
