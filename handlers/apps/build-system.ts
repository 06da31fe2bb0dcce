// The simulated build system: a build is uploaded draft; check_app_build hashes the attachment's bytes and moves it
// to pending when they match its checksum (else rejects it); review_app_build then approves or rejects it by the
// reviewer's rule. Each task locks the app, then the build (the order promote takes), re-reads the build and does
// nothing unless it is still in the state the task moves from, so a re-run or a duplicate job is harmless.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { effectsOn } from '../../runtime/effects.js';
import { fileStorage } from '../../runtime/file-storage.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { transition } from '../../runtime/state-machine.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { logBuildLine } from './app-log.js';

export const CHECK_APP_BUILD = 'check_app_build';
export const REVIEW_APP_BUILD = 'review_app_build';

export const buildJob = (task: string, buildId: string) => [task, { app_build_id: buildId }, { jobKey: `${task}:${buildId}` }] as const;

async function sha256Of(storageKey: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fileStorage().read(storageKey)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The build locked after its app; undefined when it is gone or no longer in `status`. */
async function lockBuild(trx: Knex, id: string, status: string) {
  const peek = await trx('app_builds').where({ id }).first('app_id');
  if (!peek) return undefined;
  await trx('apps').where({ id: peek.app_id }).forUpdate().first('id');
  const build = await trx('app_builds').where({ id }).forUpdate().first();
  return build?.status === status ? build : undefined;
}

async function reviewed(trx: Knex, build: { id: string; account_id: string }, changes: Record<string, unknown>) {
  await trx('app_builds').where({ id: build.id }).update({ ...changes, reviewed_at: nowMs(trx), updated_at: nowMs(trx) });
  await effectsOn(trx).emit('app_build.reviewed', build.account_id, await readView(trx, resources.AppBuild, build.id));
}

/** draft -> pending when the attachment's SHA-256 is the build's checksum; else rejected, saying what was found. */
export async function checkAppBuild(db: Knex, id: string): Promise<void> {
  const draft = await db('app_builds as b').join('files as f', 'f.id', 'b.file_id').where('b.id', id)
    .first('b.status', 'b.account_id', 'b.app_id', 'f.storage_key');
  if (draft?.status !== 'draft') return;
  let actual: string;
  try {
    actual = await sha256Of(draft.storage_key);
  } catch (err) {
    // The run fails and the job is retried; the app's logs show what went wrong each time.
    const e = err instanceof Error ? err : new Error(String(err));
    await logBuildLine(db, { id, account_id: draft.account_id, app_id: draft.app_id }, CHECK_APP_BUILD,
      { source: 'exception', level: 'error', message: `Reading the attachment failed: ${e.message}`, stack: e.stack });
    throw err;
  }
  await db.transaction(async (trx) => {
    const build = await lockBuild(trx, id, 'draft');
    if (!build) return;
    if (actual !== build.checksum.toLowerCase()) {
      const message = `The attachment's SHA-256 is ${actual}, not the checksum ${build.checksum}`;
      await reviewed(trx, build, { status: transition('AppBuild', build.status, 'fail_check'), review_message: message });
      await logBuildLine(trx, build, CHECK_APP_BUILD, { source: 'console', level: 'error', message: `Check failed: ${message}; the build is rejected` });
      return;
    }
    await trx('app_builds').where({ id }).update({ status: transition('AppBuild', build.status, 'check'), updated_at: nowMs(trx) });
    await logBuildLine(trx, build, CHECK_APP_BUILD, { source: 'console', level: 'info',
      message: `Checked the ${build.platform} build: the attachment's SHA-256 matches its checksum; queued for review` });
    await effectsOn(trx).addJob(...buildJob(REVIEW_APP_BUILD, id));
  });
}

/** The reviewer's rule: a build must say where it shows (supported_app_view_types); the first approved build of an
 * app verifies the app. */
export async function reviewAppBuild(db: Knex, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const build = await lockBuild(trx, id, 'pending');
    if (!build) return;
    if (build.supported_app_view_types.length === 0) {
      const message = 'The build declares no supported_app_view_types: say which views (hub, dashboard, ...) it serves';
      await reviewed(trx, build, { status: transition('AppBuild', build.status, 'reject'), review_message: message });
      await logBuildLine(trx, build, REVIEW_APP_BUILD, { source: 'console', level: 'error', message: `Review rejected the build: ${message}` });
      return;
    }
    await reviewed(trx, build, { status: transition('AppBuild', build.status, 'approve'), review_message: null });
    await logBuildLine(trx, build, REVIEW_APP_BUILD, { source: 'console', level: 'info',
      message: `Review approved the ${build.platform} build (views: ${build.supported_app_view_types.join(', ')})` });
    await trx('apps').where({ id: build.app_id, verified: false })
      .update({ verified: true, verified_at: nowMs(trx), updated_at: nowMs(trx) });
  });
}

const buildIdOf = (payload: unknown): string => {
  const id = (payload as { app_build_id?: unknown })?.app_build_id;
  if (typeof id !== 'string') throw new Error('an app build task needs an app_build_id');
  return id;
};

export function appBuildTasks(db: Knex): Record<string, Task> {
  return {
    [CHECK_APP_BUILD]: async (payload) => checkAppBuild(db, buildIdOf(payload)),
    [REVIEW_APP_BUILD]: async (payload) => reviewAppBuild(db, buildIdOf(payload)),
  };
}
