import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { startServer } from '../../runtime/server.js';
import { operations } from '../../generated/routes.js';
import type { OperationDefinition } from '../../runtime/operation.js';
import { echoOperation } from './echo-operation.js';

const t = suite('runtime: graceful shutdown');
let app: TestApp;

t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('close() while ~50 requests are in flight: every request gets a complete response, then the server stops', async () => {
  const o = await makeOwner(app.db, { title: 'Shutdown Shop' });
  // Requests certainly still running when close() is called: each waits until close() has been called, then holds
  // a database query for 200 ms, and the test database's pool has 5 connections, so they queue.
  let closeCalled!: () => void;
  const gate = new Promise<void>((resolve) => { closeCalled = resolve; });
  const slow: OperationDefinition = {
    ...echoOperation(),
    id: 'slowEcho',
    handler: async (input: { path: { id: string } }, ctx) => {
      await gate;
      await ctx.db.raw('select pg_sleep(0.2)');
      return { id: input.path.id, padding: 'x'.repeat(20_000) };
    },
  };
  const server = await startServer({ db: app.db, databaseUrl: '', operations: [slow, ...operations], tasks: {}, port: 0, worker: false });
  // Idle keep-alive sockets would otherwise close themselves within seconds: an hour long, close() finishing at all
  // shows that it closed them rather than waiting them out.
  server.server.keepAliveTimeout = 3_600_000;
  const base = `${server.url}/api/v1`;
  const headers = { authorization: `Bearer ${o.key}` };

  // Server-side bookkeeping: when every request has arrived, close; close must not resolve before the last finishes.
  let received = 0;
  let finished = 0;
  let finishedAtClose = -1;
  server.server.on('request', (_req, res) => {
    received++;
    res.once('finish', () => { finished++; });
  });

  const requests = Array.from({ length: 50 }, async (_, i) => {
    const url = i % 2 === 0 ? `${base}/test_echo/r${i}` : `${base}/accounts/${o.accountId}`;
    const res = await fetch(url, { headers });
    return { i, status: res.status, text: await res.text() };
  });
  while (received < 50) await new Promise((r) => setTimeout(r, 2));

  const inFlightAtClose = received - finished;
  const closing = server.close().then(() => { finishedAtClose = finished; });
  closeCalled();
  const results = await Promise.all(requests);
  // Waiting out the idle sockets would take the hour: a minute without close() finishing is that failure.
  let watchdog: NodeJS.Timeout | undefined;
  await Promise.race([closing, new Promise((_, reject) => {
    watchdog = setTimeout(() => reject(new Error('close() is still waiting a minute after the last response: on idle keep-alive sockets?')), 60_000);
  })]).finally(() => clearTimeout(watchdog));

  assert.ok(inFlightAtClose >= 25, `only ${inFlightAtClose} requests were in flight when close() was called`);
  assert.is(finished, 50);
  assert.is(finishedAtClose, 50, 'close() resolved before the in-flight requests finished');
  for (const r of results) {
    assert.is(r.status, 200, `request ${r.i}: ${r.text.slice(0, 200)}`);
    const body = JSON.parse(r.text);
    if (r.i % 2 === 0) assert.equal(body, { id: `r${r.i}`, padding: 'x'.repeat(20_000) });
    else assert.is(body.id, o.accountId);
  }
  assert.is(server.server.listening, false);
  await fetch(`${base}/accounts/${o.accountId}`, { headers }).then(
    (res) => assert.unreachable(`a request after close() was answered: ${res.status}`),
    (e) => assert.ok(e instanceof TypeError, String(e)),
  );
});

t.run();
