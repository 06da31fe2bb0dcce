// API keys that belong to an app, over HTTP: issued by POST /api_keys with app_id through the same code as account
// keys (hash, policy, allowlist, expiry, pin), acting for the app's account within their policy; uploading builds
// without app_id; listed by app_id; rotation, revocation, expiry and the IP allowlist refuse them like any key
// (the runtime credential cache is the same one).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';
import { makeApp, uploadArtifact, VERSION } from './app-fixtures.js';

const t = suite('app api keys');
let app: TestApp;
let env: FileEnv;
t.before(async () => { app = await startTestApp(); env = useTemporaryStore(app); });
t.after(async () => { env.restore(); await app.close(); });

const BUILDER = [{ effect: 'allow', actions: ['developer:*'] }];

async function appKey(o: Awaited<ReturnType<typeof makeOwner>>, appId: string, body: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/api_keys', { token: o.token, version: VERSION,
    body: { account_id: o.accountId, app_id: appId, name: 'CI', statements: BUILDER, ...body } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

t('an app key is issued like any key, names its app, and acts for the app\'s account within its policy', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const key = await appKey(o, a.id);
  assert.equal([key.app_id, key.account_id, key.status], [a.id, o.accountId, 'active']);
  assert.match(key.secret, /^sk_/);
  const stored = await app.db('api_keys').where({ id: key.id }).first();
  assert.ok(stored.secret_hash && stored.secret_hash !== key.secret, 'only a hash is stored');

  assert.is((await app.request('GET', `/apps/${a.id}`, { token: key.secret, version: VERSION })).status, 200);
  const file = await uploadArtifact(app, key.secret);
  const build = await app.request('POST', '/app_builds', { token: key.secret, version: VERSION,
    body: { attachment: { id: file.id }, checksum: file.checksum, platform: 'web' } });
  assert.is(build.status, 201, JSON.stringify(build.body));
  assert.is(build.body.app_id, a.id, 'app_id defaults to the key\'s app');
  const payments = await app.request('GET', '/payments', { token: key.secret, version: VERSION, query: { account_id: o.accountId } });
  assert.is(payments.status, 403, 'beyond its policy');
  const other = await makeOwner(app.db);
  const theirs = await makeApp(app, other);
  assert.is((await app.request('GET', `/apps/${theirs.id}`, { token: key.secret, version: VERSION })).status, 404);
  const accountKey = await app.request('POST', '/app_builds', { token: o.key, version: VERSION,
    body: { attachment: { id: (await uploadArtifact(app, o.key)).id }, checksum: 'a'.repeat(64), platform: 'web' } });
  assert.equal([accountKey.status, accountKey.body.error.param], [400, 'app_id'], 'an account\'s own key must name the app');

  const listed = await app.request('GET', '/api_keys', { token: o.token, version: VERSION, query: { account_id: o.accountId, app_id: a.id } });
  assert.equal(listed.body.data.map((k: any) => [k.id, k.secret]), [[key.id, null]]);
  const all = await app.request('GET', '/api_keys', { token: o.token, version: VERSION, query: { account_id: o.accountId } });
  assert.ok(all.body.data.some((k: any) => k.id === o.keyId && k.app_id === null));
});

t('an app of another account is a 404 naming app_id; nothing is issued', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const theirs = await makeApp(app, other);
  const res = await app.request('POST', '/api_keys', { token: o.token, version: VERSION,
    body: { account_id: o.accountId, app_id: theirs.id, name: 'x', statements: BUILDER } });
  assert.equal([res.status, res.body.error.param], [404, 'app_id']);
  assert.is((await app.db('api_keys').where({ app_id: theirs.id })).length, 0);
  const apiKeyCaller = await app.request('POST', '/api_keys', { token: o.key, version: VERSION,
    body: { account_id: o.accountId, app_id: theirs.id, name: 'x', statements: BUILDER } });
  assert.is(apiKeyCaller.status, 403, 'keys are managed with a user session only');
});

t('a revoked app key is refused; rotation retires the old secret; expiry and the IP allowlist apply', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const read = (secret: string) => app.request('GET', `/apps/${a.id}`, { token: secret, version: VERSION });

  const rotated = await appKey(o, a.id);
  assert.is((await read(rotated.secret)).status, 200);
  const fresh = await app.request('POST', `/api_keys/${rotated.id}/rotate`, { token: o.token, version: VERSION });
  assert.is(fresh.body.app_id, a.id);
  assert.is((await read(rotated.secret)).status, 401);
  assert.is((await read(fresh.body.secret)).status, 200);

  const revoked = await appKey(o, a.id);
  assert.is((await read(revoked.secret)).status, 200);
  const res = await app.request('POST', `/api_keys/${revoked.id}/revoke`, { token: o.token, version: VERSION });
  assert.equal([res.body.status, res.body.app_id], ['revoked', a.id]);
  const refused = await read(revoked.secret);
  assert.equal([refused.status, refused.body.error.type], [401, 'authentication_required']);

  const fenced = await appKey(o, a.id, { ip_allowlist: ['10.0.0.0/8'] });
  assert.is((await read(fenced.secret)).status, 401);
  // A key that expires in three seconds works until then, and not after.
  const expiresAt = Date.now() + 3_000;
  const expiring = await appKey(o, a.id, { expires_at: new Date(expiresAt).toISOString() });
  assert.is((await read(expiring.secret)).status, 200);
  await new Promise((resolve) => setTimeout(resolve, expiresAt - Date.now() + 50));
  assert.is((await read(expiring.secret)).status, 401);
});

t.run();
