// GET /apps/{id}/logs over HTTP, from real runs: the build system's lines (checked, approved, rejected, and an
// exception when the artifact cannot be read), the app's failed requests (made with its API key, written by the api
// log writer's batch), filters, keyset pages, another account's app (404), and the 7-day purge.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';
import { CHECK_APP_BUILD, checkAppBuild } from '../../handlers/apps/build-jobs.js';
import { purgeApiLogs } from '../../handlers/api_logs/purge.js';
import { builtBuild, makeApp, uploadArtifact, VERSION } from './app-fixtures.js';

const t = suite('app logs');
let app: TestApp;
let env: FileEnv;
t.before(async () => { app = await startTestApp(); env = useTemporaryStore(app); });
t.after(async () => { env.restore(); await app.close(); });

const logs = (token: string, appId: string, query: Record<string, unknown> = {}) =>
  app.request('GET', `/apps/${appId}/logs`, { token, version: VERSION, query: query as never });
async function lines(token: string, appId: string, query: Record<string, unknown> = {}) {
  const res = await logs(token, appId, query);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.data as any[];
}

t('the build system\'s runs are console lines of their build, newest first; level, app_build_id and query narrow them', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const good = await builtBuild(app, o, a.id, { supported_app_view_types: ['hub', 'dashboard'] });
  const bare = await builtBuild(app, o, a.id, { supported_app_view_types: [] });
  const file = await uploadArtifact(app, o.key);
  const wrong = await app.request('POST', '/app_builds', { token: o.key, version: VERSION,
    body: { app_id: a.id, attachment: { id: file.id }, checksum: 'ab'.repeat(32), platform: 'ios', supported_app_view_types: ['hub'] } });
  await checkAppBuild(app.db, wrong.body.id);
  const all = await lines(o.key, a.id);
  assert.equal(all.map((l) => [l.app_build_id, l.source, l.level, l.request_id.split(':')[0]]), [
    [wrong.body.id, 'console', 'error', 'check_app_build'],
    [bare.id, 'console', 'error', 'review_app_build'],
    [bare.id, 'console', 'info', 'check_app_build'],
    [good.id, 'console', 'info', 'review_app_build'],
    [good.id, 'console', 'info', 'check_app_build'],
  ]);
  assert.equal(Object.keys(all[0]).sort(), ['app_build_id', 'app_id', 'created_at', 'id', 'level', 'message', 'outcome',
    'request_id', 'request_method', 'request_path', 'response_status', 'source', 'stack', 'wall_time_ms'].sort());
  assert.equal([all[0].app_id, all[0].request_id], [a.id, `${CHECK_APP_BUILD}:${wrong.body.id}`]);
  assert.match(all[0].message, new RegExp(`not the checksum ${'ab'.repeat(32)}`));
  assert.is(all[3].message, 'Review approved the web build (views: hub, dashboard)');
  assert.equal((await lines(o.key, a.id, { level: 'error' })).map((l) => l.app_build_id), [wrong.body.id, bare.id]);
  assert.equal((await lines(o.key, a.id, { app_build_id: good.id })).length, 2);
  assert.equal((await lines(o.key, a.id, { query: 'SUPPORTED_APP_VIEW_TYPES' })).map((l) => l.app_build_id), [bare.id]);
  assert.equal(await lines(o.key, a.id, { query: '100%' }), [], '% is taken literally');
  // Keyset pages of one line walk the same order.
  const seen: string[] = [];
  let after: string | undefined;
  for (;;) {
    const res = await logs(o.key, a.id, { first: 1, ...(after ? { after } : {}) });
    seen.push(...res.body.data.map((l: any) => l.id));
    if (!res.body.page_info.has_next_page) break;
    after = res.body.page_info.end_cursor;
  }
  assert.equal(seen, all.map((l) => l.id));
  const bounded = await lines(o.key, a.id, { created_before: all[0].created_at, created_after: all[4].created_at });
  assert.ok(bounded.every((l) => l.created_at < all[0].created_at && l.created_at > all[4].created_at));
});

t('an artifact the build system cannot read is an exception line with its stack, each time the run fails', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const file = await uploadArtifact(app, o.key);
  const res = await app.request('POST', '/app_builds', { token: o.key, version: VERSION,
    body: { app_id: a.id, attachment: { id: file.id }, checksum: file.checksum, platform: 'web', supported_app_view_types: ['hub'] } });
  // sql-state-write: the artifact's stored bytes lost on purpose: a storage failure the product must never cause itself
  await app.db('files').where({ id: file.id }).update({ storage_key: `gone/${file.id}` });
  for (let run = 0; run < 2; run++) {
    let failed = false;
    await checkAppBuild(app.db, res.body.id).catch(() => { failed = true; });
    assert.ok(failed, 'the run fails, so the job is retried');
  }
  const [last, first] = await lines(o.key, a.id);
  assert.equal([last.source, last.level, first.source, last.app_build_id], ['exception', 'error', 'exception', res.body.id]);
  assert.match(last.message, /^Reading the attachment failed: /);
  assert.match(last.stack, /\n\s+at /);
  assert.is((await app.db('app_builds').where({ id: res.body.id }).first()).status, 'draft');
});

t('the app\'s failed requests are request lines (with its production web build); successes and other keys\' failures are not', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const keyRes = await app.request('POST', '/api_keys', { token: o.token, version: VERSION,
    body: { account_id: o.accountId, app_id: a.id, name: 'server', statements: [{ effect: 'allow', actions: ['developer:*'] }] } });
  const key = keyRes.body.secret as string;
  const build = await builtBuild(app, o, a.id);
  assert.is((await app.request('POST', `/app_builds/${build.id}/promote`, { token: o.key, version: VERSION })).status, 200);
  assert.is((await app.request('GET', `/apps/${a.id}`, { token: key, version: VERSION })).status, 200);
  const refused = await app.request('GET', '/payments', { token: key, version: VERSION, query: { account_id: o.accountId } });
  assert.is(refused.status, 403);
  const missing = await app.request('GET', '/app_builds/apbu_doesnotexist0000', { token: key, version: VERSION });
  assert.is(missing.status, 404);
  assert.is((await app.request('GET', '/app_builds/apbu_doesnotexist0000', { token: o.key, version: VERSION })).status, 404);
  await app.server.apiLogs!.flush();
  const requests = await lines(o.key, a.id, { query: 'answered' });
  assert.equal(requests.map((l) => [l.source, l.level, l.request_method, l.request_path, l.response_status, l.outcome, l.app_build_id]), [
    ['request', 'warn', 'GET', '/app_builds/{id}', 404, 'client_error', build.id],
    ['request', 'warn', 'GET', '/payments', 403, 'client_error', build.id],
  ]);
  assert.is(requests[1].message, 'GET /payments answered 403 (listPayments)');
  assert.ok(Number.isInteger(requests[1].wall_time_ms));
  const logged = await app.db('api_logs').where({ request_id: requests[1].request_id }).first('status');
  assert.is(logged.status, 403, 'the line names the api log\'s request');
});

t('another account\'s app is a 404; the purge takes lines older than 7 days', async () => {
  const [o, other] = [await makeOwner(app.db), await makeOwner(app.db)];
  const a = await makeApp(app, o);
  await builtBuild(app, o, a.id);
  const theirs = await logs(other.key, a.id);
  assert.equal([theirs.status, theirs.body.error.type], [404, 'not_found']);
  const [newer, older] = await lines(o.key, a.id);
  // sql-state-write: a line 8 days old; the purge runs on real time (never a sandbox clock), so only the wall could age it
  await app.db('app_logs').where({ id: older.id }).update({ created_at: new Date(Date.now() - 8 * 86_400_000).toISOString() });
  await purgeApiLogs(app.db);
  assert.equal((await lines(o.key, a.id)).map((l) => l.id), [newer.id]);
});

t.run();
