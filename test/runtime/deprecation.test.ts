// Deprecated operations answer with Deprecation, a successor Link and, where a date is set, Sunset.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { echoOperation } from './echo-operation.js';
import { startServer, type RunningServer } from '../../runtime/server.js';

const t = suite('runtime: deprecation headers');
let app: TestApp;
let server: RunningServer;
let key: string;
t.before(async () => {
  app = await startTestApp();
  key = (await makeOwner(app.db)).key;
  const deprecated = { ...echoOperation(), id: 'oldEcho', path: '/old_echo/:id', deprecated: { successor: '/test_echo/{id}', sunset: '2027-03-01' } };
  const plain = { ...echoOperation(), id: 'newEcho', path: '/new_echo/:id', deprecated: { successor: '/test_echo/{id}' } };
  server = await startServer({ db: app.db, databaseUrl: '', operations: [deprecated, plain, echoOperation()], tasks: {}, port: 0, worker: false });
});
t.after(async () => { await server.close(); await app.close(); });

const call = (path: string) => fetch(`${server.url}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });

t('a deprecated operation still answers, with Deprecation, successor Link and Sunset', async () => {
  const res = await call('/old_echo/x1');
  assert.is(res.status, 200);
  assert.is(res.headers.get('deprecation'), 'true');
  assert.is(res.headers.get('link'), '</api/v1/test_echo/x1>; rel="successor-version"');
  assert.is(res.headers.get('sunset'), 'Mon, 01 Mar 2027 00:00:00 GMT');
});

t('without a sunset date there is no Sunset header; current operations carry none of them', async () => {
  const dep = await call('/new_echo/x1');
  assert.is(dep.headers.get('deprecation'), 'true');
  assert.is(dep.headers.get('sunset'), null);
  const current = await call('/test_echo/x1');
  assert.is(current.status, 200);
  assert.is(current.headers.get('deprecation'), null);
  assert.is(current.headers.get('link'), null);
});

t.run();
