// Credentials and account visibility are cached in each process, and a change is seen by every process at once:
// the database notifies it (migrations/140_cache_invalidation.ts, runtime/shared-cache.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { projectRoot } from '../../runtime/project-root.js';
import { until as poll } from '../helpers/poll.js';

const t = suite('runtime: caches shared by every process');
let app: TestApp;
let other: { child: ChildProcess; url: string };

t.before(async () => {
  app = await startTestApp();
  // The other process keeps what it caches for an hour: what it stops serving it learnt from a notification (or the
  // loss of its listener), not from an entry expiring, however long a loaded machine takes.
  const child = fork(join(projectRoot, 'test/runtime/server-process.ts'), [], {
    execArgv: ['--import', 'tsx'], env: { ...process.env, DATABASE_URL: app.databaseUrl, CACHE_TTL_MS: String(3_600_000) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url } = await new Promise<{ url: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string }));
    child.once('exit', (code) => reject(new Error(`the second server exited (${code})`)));
  });
  other = { child, url };
  await listening();
});
t.after(async () => {
  const exited = new Promise((r) => other.child.once('exit', r));
  other.child.send({ type: 'stop' });
  await exited;
  await app.close();
});

/** Both processes' listeners are connected (each caches nothing until its listener is). */
async function listening(): Promise<void> {
  await poll(async () => (await app.db.raw("select count(*)::int as n from pg_stat_activity where application_name = 'cache-invalidation-listener' and datname = current_database()")).rows[0].n >= 2,
    'both cache listeners to connect', { timeoutMs: 30_000 });
}

const status = async (base: string, path: string, secret: string) =>
  (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${secret}` } })).status;

/** Polls until the request's status is `want`; returns how long that took (reported, not asserted). */
async function until(want: number, probe: () => Promise<number>, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  await poll(async () => (await probe()) === want, `status ${want}`, { timeoutMs, everyMs: 10 });
  return Date.now() - started;
}

t('a key is cached: with the notification switched off, a revocation by SQL goes unseen (the TTL is the safety net)', async () => {
  const o = await makeOwner(app.db);
  assert.is(await status(app.url, '/accounts/me', o.key), 200);
  await app.db.transaction(async (trx) => {
    await trx.raw('alter table api_keys disable trigger api_keys_invalidates_credentials');
    await trx('api_keys').where({ id: o.keyId }).update({ revoked_at: trx.fn.now() }); // sql-state-write: runtime test: a change made unnotified (trigger off), as one missed during an outage, which the product cannot make
    await trx.raw('alter table api_keys enable trigger api_keys_invalidates_credentials');
  });
  assert.is(await status(app.url, '/accounts/me', o.key), 200, 'served from the cache');
});

t('a key revoked through one process is refused by it at once and by the other on the notification', async () => {
  const o = await makeOwner(app.db);
  const victim = await makeKey(app.db, { accountId: o.accountId, role: 'admin' });
  assert.is(await status(app.url, '/accounts/me', victim.secret), 200);
  assert.is(await status(other.url, '/accounts/me', victim.secret), 200);
  // Revoking is a user's act (the owner's token).
  const revoked = await fetch(`${app.url}/api_keys/${victim.id}/revoke`, { method: 'POST', headers: { authorization: `Bearer ${o.token}` } });
  assert.ok(revoked.status < 300, String(revoked.status));
  assert.is(await status(app.url, '/accounts/me', victim.secret), 401, 'the revoking process, on its next request');
  const ms = await until(401, () => status(other.url, '/accounts/me', victim.secret));
  console.log(`    the other process refused the revoked key after ${ms} ms`);
});

t('a key revoked by SQL from outside both processes is refused by both on the notification', async () => {
  const o = await makeOwner(app.db);
  assert.is(await status(app.url, '/accounts/me', o.key), 200);
  assert.is(await status(other.url, '/accounts/me', o.key), 200);
  await app.db('api_keys').where({ id: o.keyId }).update({ revoked_at: app.db.fn.now() }); // sql-state-write: runtime test of the invalidation trigger: any writer, not only the API, must be heard by every process
  assert.is(await status(app.url, '/accounts/me', o.key), 401, 'the notification arrives before the statement returns');
  await until(401, () => status(other.url, '/accounts/me', o.key));
});

t('a team member removed in one place loses the account in both processes', async () => {
  const o = await makeOwner(app.db);
  const helper = await makeUser(app.db);
  await app.db('team_members').insert({ id: `tm_${helper.id}`, account_id: o.accountId, user_id: helper.id, role: 'admin', status: 'active' }); // sql-state-write: runtime test of the invalidation trigger: the membership row appears as any writer would add it
  const path = `/accounts/${o.accountId}`;
  assert.is(await status(app.url, path, helper.token), 200);
  assert.is(await status(other.url, path, helper.token), 200);
  await app.db('team_members').where({ user_id: helper.id }).delete(); // sql-state-write: runtime test of the invalidation trigger: any writer, not only the API, must be heard by every process
  assert.is(await status(app.url, path, helper.token), 404);
  await until(404, () => status(other.url, path, helper.token));
});

t('while a process has lost its listener it caches nothing, and caches again once reconnected', async () => {
  const o = await makeOwner(app.db);
  assert.is(await status(other.url, '/accounts/me', o.key), 200);
  await app.db.raw("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'cache-invalidation-listener' and datname = current_database()");
  // Unnotified, as a change missed during the outage would be: no process may serve it from a cache.
  await app.db.transaction(async (trx) => {
    await trx.raw('alter table api_keys disable trigger api_keys_invalidates_credentials');
    await trx('api_keys').where({ id: o.keyId }).update({ revoked_at: trx.fn.now() }); // sql-state-write: runtime test: a change made unnotified (trigger off), as one missed during an outage, which the product cannot make
    await trx.raw('alter table api_keys enable trigger api_keys_invalidates_credentials');
  });
  await until(401, () => status(other.url, '/accounts/me', o.key));
  await listening();
});

t.run();
