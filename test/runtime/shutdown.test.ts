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
  // Requests certainly still running when close() is called: each holds a database query for 200 ms, and the
  // test database's pool has 5 connections, so they queue.
  const slow: OperationDefinition = {
    ...echoOperation(),
    id: 'slowEcho',
    handler: async (input: { path: { id: string } }, ctx) => {
      await ctx.db.raw('select pg_sleep(0.2)');
      return { id: input.path.id, padding: 'x'.repeat(20_000) };
    },
  };
  const server = await startServer({ db: app.db, databaseUrl: '', operations: [slow, ...operations], tasks: {}, port: 0, worker: false });
  const base = `${server.url}/api/v1`;
  const headers = { authorization: `Bearer ${o.key}` };

  // Server-side bookkeeping: when every request has arrived, close; close must not resolve before the last finishes.
  let received = 0;
  let finished = 0;
  let lastFinishedAt = 0;
  server.server.on('request', (_req, res) => {
    received++;
    res.once('finish', () => { finished++; lastFinishedAt = Date.now(); });
  });

  const requests = Array.from({ length: 50 }, async (_, i) => {
    const url = i % 2 === 0 ? `${base}/test_echo/r${i}` : `${base}/accounts/${o.accountId}`;
    const res = await fetch(url, { headers });
    return { i, status: res.status, text: await res.text() };
  });
  while (received < 50) await new Promise((r) => setTimeout(r, 2));

  const inFlightAtClose = received - finished;
  let closedAt = 0;
  const closing = server.close().then(() => { closedAt = Date.now(); });
  const results = await Promise.all(requests);
  await closing;

  assert.ok(inFlightAtClose >= 20, `only ${inFlightAtClose} requests were in flight when close() was called`);
  assert.is(finished, 50);
  assert.ok(closedAt >= lastFinishedAt, 'close() resolved before the in-flight requests finished');
  assert.ok(closedAt - lastFinishedAt < 1000, `close() took ${closedAt - lastFinishedAt} ms after the last response`);
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
