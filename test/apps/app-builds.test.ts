// /app_builds over HTTP with real artifacts: upload rules (a ready file of the caller's, a SHA-256 checksum), the
// simulated build system (check: the bytes' hash against the checksum; review: supported view types; the first
// approval verifies the app; each job idempotent), listing and filters, promotion (one production build per
// platform; a web build becomes the app's production_web_build_id), another account's builds → 404, and
// ai_prompt_id refused from entry 9 but accepted and stored before it.
import { randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { keyWith } from '../accounts/support.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';
import { CHECK_APP_BUILD, checkAppBuild, REVIEW_APP_BUILD, reviewAppBuild } from '../../handlers/apps/build-jobs.js';
import { builtBuild, makeApp, runBuildJob, uploadArtifact, VERSION } from './app-fixtures.js';

const BEFORE_9 = '2026-08-28'; // pins before 2026-09-02 accept ai_prompt_id
const t = suite('app builds');
let app: TestApp;
let env: FileEnv;
t.before(async () => { app = await startTestApp(); env = useTemporaryStore(app); });
t.after(async () => { env.restore(); await app.close(); });

const upload = (token: string, body: Record<string, unknown>, version = VERSION) =>
  app.request('POST', '/app_builds', { token, version, body });
const get = (token: string, path: string, query?: Record<string, unknown>) =>
  app.request('GET', path, { token, version: VERSION, query: query as never });
const promote = (token: string, id: string) => app.request('POST', `/app_builds/${id}/promote`, { token, version: VERSION });

t('a build moves draft → pending → approved in the background; the first approval verifies the app', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const file = await uploadArtifact(app, o.key);
  const res = await upload(o.key, { app_id: a.id, attachment: { id: file.id }, checksum: file.checksum.toUpperCase(), platform: 'web',
    supported_app_view_types: ['hub', 'dashboard', 'hub'] });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const b = res.body;
  assert.match(b.id, /^apbu_/);
  assert.equal([b.account_id, b.app_id, b.platform, b.status, b.checksum, b.file_id, b.source_file_id, b.supported_app_view_types,
    b.review_message, b.is_production, b.reviewed_at], [o.accountId, a.id, 'web', 'draft', file.checksum, file.id, null, ['hub', 'dashboard'], null, false, null]);

  await runBuildJob(app, CHECK_APP_BUILD, b.id);
  assert.is((await get(o.key, `/app_builds/${b.id}`)).body.status, 'pending');
  await checkAppBuild(app.db, b.id); // a duplicate check finds it no longer draft
  assert.is((await app.db('graphile_worker._private_jobs')).filter((j) => j.key === `${REVIEW_APP_BUILD}:${b.id}`).length, 1);
  assert.is((await get(o.key, `/apps/${a.id}`)).body.verified, false);

  await runBuildJob(app, REVIEW_APP_BUILD, b.id);
  const done = (await get(o.key, `/app_builds/${b.id}`)).body;
  assert.equal([done.status, done.review_message], ['approved', null]);
  assert.ok(done.reviewed_at);
  await reviewAppBuild(app.db, b.id); // idempotent
  assert.equal((await get(o.key, `/app_builds/${b.id}`)).body, done);
  const verified = (await get(o.key, `/apps/${a.id}`)).body;
  assert.equal([verified.verified, verified.recommended], [true, false]);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [b.id]).orderBy('created_at').select('type', 'data');
  assert.equal(events.map((e) => [e.type, e.data.status]), [['app_build.created', 'draft'], ['app_build.reviewed', 'approved']]);
});

t('a checksum the bytes do not have, or a build without view types, is rejected saying why', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const file = await uploadArtifact(app, o.key);
  const wrong = 'ab'.repeat(32);
  const res = await upload(o.key, { app_id: a.id, attachment: { id: file.id }, checksum: wrong, platform: 'ios', supported_app_view_types: ['hub'] });
  await runBuildJob(app, CHECK_APP_BUILD, res.body.id);
  const rejected = (await get(o.key, `/app_builds/${res.body.id}`)).body;
  assert.is(rejected.status, 'rejected');
  assert.is(rejected.review_message, `The attachment's SHA-256 is ${file.checksum}, not the checksum ${wrong}`);
  assert.is((await app.db('graphile_worker._private_jobs')).filter((j) => j.key === `${REVIEW_APP_BUILD}:${res.body.id}`).length, 0);

  const bare = await builtBuild(app, o, a.id, { supported_app_view_types: [] });
  assert.is(bare.status, 'rejected');
  assert.match(bare.review_message, /supported_app_view_types/);
  assert.is((await get(o.key, `/apps/${a.id}`)).body.verified, false, 'rejections verify nothing');
});

t('upload rules name their field and write nothing', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const file = await uploadArtifact(app, o.key);
  const pending = await app.request('POST', '/files', { token: o.key, version: VERSION, body: { filename: 'later.zip' } });
  const otherFile = await uploadArtifact(app, (await makeOwner(app.db)).key);
  const ok = { app_id: a.id, attachment: { id: file.id }, checksum: file.checksum, platform: 'web' };
  const cases: [Record<string, unknown>, number, string][] = [
    [{ ...ok, checksum: 'abc' }, 400, 'checksum'],
    [{ ...ok, platform: 'windows' }, 400, 'platform'],
    [{ ...ok, attachment: undefined }, 400, 'attachment'],
    [{ ...ok, attachment: { id: 'file_nope' } }, 400, 'attachment.id'],
    [{ ...ok, attachment: { id: otherFile.id } }, 400, 'attachment.id'],
    [{ ...ok, attachment: { id: pending.body.id } }, 400, 'attachment.id'],
    [{ ...ok, source_attachment: { id: 'file_nope' } }, 400, 'source_attachment.id'],
    [{ ...ok, supported_app_view_types: ['kiosk'] }, 400, 'supported_app_view_types.0'],
    [{ ...ok, app_id: undefined }, 400, 'app_id'],
    [{ ...ok, app_id: 'app_missing' }, 404, 'app_id'],
    [{ ...ok, ai_prompt_id: 'aip_1' }, 400, 'ai_prompt_id'],
  ];
  for (const [body, status, param] of cases) {
    const res = await upload(o.key, body);
    assert.is(res.status, status, JSON.stringify(body));
    assert.is(res.body.error.param, param, JSON.stringify(body));
  }
  // Another caller's file does not exist for this one: the same words as an unknown id (handlers/files/ready-files.ts).
  const theirs = await upload(o.key, { ...ok, attachment: { id: otherFile.id } });
  assert.is(theirs.body.error.message, `No such file of yours: '${otherFile.id}'. Upload it (POST /files) and finish it first`);
  assert.match((await upload(o.key, { ...ok, attachment: { id: pending.body.id } })).body.error.message, 'is not uploaded yet');
  assert.is((await app.db('app_builds').where({ app_id: a.id })).length, 0);
  const withSource = await upload(o.key, { ...ok, source_attachment: { id: file.id } });
  assert.is(withSource.body.source_file_id, file.id);
});

t('ai_prompt_id is accepted and stored before entry 9, and the build answers as at the head', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const file = await uploadArtifact(app, o.key);
  const res = await upload(o.key, { app_id: a.id, attachment: { id: file.id }, checksum: file.checksum, platform: 'android', ai_prompt_id: 'aip_42' }, BEFORE_9);
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(res.body.status, 'draft');
  assert.is(res.body.ai_prompt_id, undefined);
  assert.is((await app.db('app_builds').where({ id: res.body.id }).first()).ai_prompt_id, 'aip_42');
  const head = await upload(o.key, { app_id: a.id, attachment: { id: file.id }, checksum: file.checksum, platform: 'android', ai_prompt_id: 'aip_42' });
  assert.is(head.status, 400);
  assert.is(head.body.error.param, 'ai_prompt_id');
});

t('promotion: approved or draft only; one production build per platform; a web build is the app\'s production build', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const first = await builtBuild(app, o, a.id);
  const second = await builtBuild(app, o, a.id);
  const ios = await builtBuild(app, o, a.id, { platform: 'ios' });
  const rejected = await builtBuild(app, o, a.id, { supported_app_view_types: [] });

  const p1 = await promote(o.key, first.id);
  assert.is(p1.status, 200, JSON.stringify(p1.body));
  assert.is(p1.body.is_production, true);
  await promote(o.key, ios.id);
  let current = (await get(o.key, `/apps/${a.id}`)).body;
  assert.is(current.production_web_build_id, first.id);
  await app.request('PATCH', `/apps/${a.id}`, { token: o.key, version: VERSION, body: { status: 'live' } });
  assert.is((await get(o.key, `/apps/${a.id}`)).body.recommended, true);

  const p2 = await promote(o.key, second.id);
  assert.is(p2.body.is_production, true);
  assert.is((await get(o.key, `/app_builds/${first.id}`)).body.is_production, false);
  assert.is((await get(o.key, `/app_builds/${ios.id}`)).body.is_production, true, 'other platforms keep theirs');
  current = (await get(o.key, `/apps/${a.id}`)).body;
  assert.is(current.production_web_build_id, second.id);
  const again = await promote(o.key, second.id);
  assert.equal(again.body, p2.body);
  assert.is((await app.db('events').where({ type: 'app_build.promoted' }).whereRaw("data->>'id' = ?", [second.id])).length, 1);

  const refused = await promote(o.key, rejected.id);
  assert.is(refused.status, 400);
  assert.equal([refused.body.error.type, refused.body.error.param], ['invalid_state', 'status']);
  const file = await uploadArtifact(app, o.key);
  const draft = await upload(o.key, { app_id: a.id, attachment: { id: file.id }, checksum: file.checksum, platform: 'web' });
  assert.is((await promote(o.key, draft.body.id)).body.is_production, true);
  await runBuildJob(app, CHECK_APP_BUILD, draft.body.id);
  const pendingPromote = await promote(o.key, draft.body.id);
  assert.is(pendingPromote.status, 200, 'already production: unchanged');
});

t('listing an app\'s builds: newest first, filters, app_id required', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const web = await builtBuild(app, o, a.id);
  const ios = await builtBuild(app, o, a.id, { platform: 'ios', supported_app_view_types: [] });
  const ids = async (query: Record<string, unknown>) => (await get(o.key, '/app_builds', { app_id: a.id, ...query })).body.data.map((b: any) => b.id);
  assert.equal(await ids({}), [ios.id, web.id]);
  assert.equal(await ids({ platform: 'web' }), [web.id]);
  assert.equal(await ids({ status: 'rejected' }), [ios.id]);
  assert.equal(await ids({ created_after: web.created_at }), [ios.id]);
  assert.equal(await ids({ direction: 'asc' }), [web.id, ios.id]);
  const missing = await get(o.key, '/app_builds');
  assert.equal([missing.status, missing.body.error.param], [400, 'app_id']);
});

t('another account never sees, uploads to or promotes your builds (404); scopes are checked (403)', async () => {
  const o = await makeOwner(app.db);
  const a = await makeApp(app, o);
  const b = await builtBuild(app, o, a.id);
  const stranger = await makeOwner(app.db);
  const theirFile = await uploadArtifact(app, stranger.key);
  for (const res of [
    await get(stranger.key, `/app_builds/${b.id}`),
    await get(stranger.key, '/app_builds', { app_id: a.id }),
    await promote(stranger.key, b.id),
    await upload(stranger.key, { app_id: a.id, attachment: { id: theirFile.id }, checksum: theirFile.checksum, platform: 'web' }),
  ]) {
    assert.is(res.status, 404, JSON.stringify(res.body));
  }
  assert.is((await get(o.key, `/app_builds/${b.id}`)).body.is_production, false);
  const reader = await keyWith(app.db, o.accountId, ['developer:basic:read']);
  assert.is((await get(reader, `/app_builds/${b.id}`)).status, 200);
  assert.is((await promote(reader, b.id)).status, 403);
  const file = await uploadArtifact(app, reader);
  assert.is((await upload(reader, { app_id: a.id, attachment: { id: file.id }, checksum: file.checksum, platform: 'web' })).status, 403);
});

t.run();
