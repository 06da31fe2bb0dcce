// Apps tests: apps made over HTTP, build artifacts uploaded as real files (bytes in a temporary store), and the
// build system's queued jobs run as the worker runs them.
import { createHash, randomBytes } from 'node:crypto';
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { jobsOf } from '../payments/payment-fixtures.js';
import { checkAppBuild, CHECK_APP_BUILD, reviewAppBuild, REVIEW_APP_BUILD } from '../../handlers/apps/build-jobs.js';
import { headVersion } from '../../runtime/versions.js';

export const VERSION = headVersion();
let routes = 0;
export const freshRoute = (base = 'app') => `${base}-${process.pid}-${++routes}-${randomBytes(2).toString('hex')}`;

export async function makeApp(app: TestApp, owner: { key: string; accountId: string }, body: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/apps', { token: owner.key, version: VERSION,
    body: { account_id: owner.accountId, name: 'Chat', route: freshRoute(), ...body } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** A ready file of `token`'s caller holding `bytes`; its id and the bytes' SHA-256. */
export async function uploadArtifact(app: TestApp, token: string, bytes: Buffer = randomBytes(2048), filename = 'build.zip') {
  const created = await app.request('POST', '/files', { token, version: VERSION, body: { filename } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const put = await fetch(created.body.upload_url, { method: 'PUT', body: bytes as unknown as BodyInit, headers: created.body.upload_headers });
  assert.is(put.status, 200, await put.clone().text());
  return { id: created.body.id as string, checksum: createHash('sha256').update(bytes).digest('hex') };
}

/** Runs the one queued job of `task` for the build (the worker's run), then removes it as the worker would. */
export async function runBuildJob(app: TestApp, task: typeof CHECK_APP_BUILD | typeof REVIEW_APP_BUILD, buildId: string) {
  const jobs = await jobsOf(app, task, buildId);
  assert.is(jobs.length, 1, `one ${task} job queued`);
  await (task === CHECK_APP_BUILD ? checkAppBuild : reviewAppBuild)(app.db, buildId);
  await app.db('graphile_worker._private_jobs').whereIn('id', jobs.map((j) => j.id)).delete();
}

/** A build uploaded and taken through check and review; its final state. */
export async function builtBuild(app: TestApp, owner: { key: string }, appId: string, body: Record<string, unknown> = {}) {
  const file = await uploadArtifact(app, owner.key);
  const res = await app.request('POST', '/app_builds', { token: owner.key, version: VERSION, body: {
    app_id: appId, attachment: { id: file.id }, checksum: file.checksum, platform: 'web', supported_app_view_types: ['hub'], ...body } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  await runBuildJob(app, CHECK_APP_BUILD, res.body.id);
  if ((await app.db('app_builds').where({ id: res.body.id }).first()).status === 'pending') await runBuildJob(app, REVIEW_APP_BUILD, res.body.id);
  return (await app.request('GET', `/app_builds/${res.body.id}`, { token: owner.key, version: VERSION })).body;
}
