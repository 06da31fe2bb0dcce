// An API key's last_used_at records use, at minute resolution.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';

const t = suite('api keys: last_used_at');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('is null until the key is used, then set; a stale value is refreshed, a fresh one left alone', async () => {
  const o = await makeOwner(app.db);
  const read = async () => (await app.db('api_keys').where({ id: o.keyId }).first('last_used_at')).last_used_at as string | null;
  assert.is(await read(), null);
  assert.is((await app.request('GET', '/accounts/me', { token: o.key })).status, 200);
  const first = await read();
  assert.ok(first && Date.now() - Date.parse(first) < 60_000);
  await app.request('GET', '/accounts/me', { token: o.key });
  assert.is(await read(), first);
  await app.db('api_keys').where({ id: o.keyId }).update({ last_used_at: app.db.raw("now() - interval '2 hours'") }); // sql-state-write: last use is recorded in real time at minute resolution (not on a sandbox clock); a value hours old needs hours to pass
  // Recording use is not a change to what the key may do, so it notifies no process; the server re-reads the key
  // once its cached copy is dropped (here, at once; otherwise within CACHE_TTL_MS).
  await app.db.raw("select pg_notify('cache_invalidation', 'credentials')");
  await app.request('GET', '/accounts/me', { token: o.key });
  assert.ok(Date.now() - Date.parse((await read())!) < 60_000);
  const view = await app.request('GET', `/api_keys/${o.keyId}`, { token: o.token });
  assert.is(view.status, 200);
  assert.ok(view.body.last_used_at);
});

t.run();
