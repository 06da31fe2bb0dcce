// The build jobs: a build is uploaded draft; check_app_build asks the build system (build-system-port.ts) to check
// the attachment against its checksum and moves the build to pending when it passes (else rejects it);
// review_app_build then approves or rejects it by the build system's reviewer. Each task locks the app, then the
// build (the order promote takes), re-reads the build and does nothing unless it is still in the state the task
// moves from, so a re-run or a duplicate job is harmless.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { effectsOn } from '../../generated/effects.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { transition } from '../../generated/state-machine.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { fileStorage } from '../../runtime/file-storage.js';
import { logBuildLine } from './app-log.js';
import { buildSystem, type CheckOutcome } from './build-system-port.js';

export const CHECK_APP_BUILD = 'check_app_build';
export const REVIEW_APP_BUILD = 'review_app_build';

export const buildJob = (task: string, buildId: string) => [task, { app_build_id: buildId }, { jobKey: `${task}:${buildId}` }] as const;

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

/** draft -> pending when the build system's check passes; else rejected, saying what was found. */
export async function checkAppBuild(db: Knex, id: string): Promise<void> {
  const draft = await db('app_builds as b').join('files as f', 'f.id', 'b.file_id').where('b.id', id)
    .first('b.status', 'b.account_id', 'b.app_id', 'b.platform', 'b.checksum', 'f.storage_key');
  if (draft?.status !== 'draft') return;
  let outcome: CheckOutcome;
  try {
    outcome = await buildSystem().check({
      platform: draft.platform, checksum: draft.checksum, storage_key: draft.storage_key, read: () => fileStorage(db).read(draft.storage_key),
    });
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
    if (!outcome.passed) {
      await reviewed(trx, build, { status: transition('AppBuild', build.status, 'fail_check'), review_message: outcome.finding });
      await logBuildLine(trx, build, CHECK_APP_BUILD, { source: 'console', level: 'error', message: `Check failed: ${outcome.finding}; the build is rejected` });
      return;
    }
    await trx('app_builds').where({ id }).update({ status: transition('AppBuild', build.status, 'check'), updated_at: nowMs(trx) });
    await logBuildLine(trx, build, CHECK_APP_BUILD, { source: 'console', level: 'info',
      message: `Checked the ${build.platform} build: ${outcome.finding}; queued for review` });
    await effectsOn(trx).addJob(...buildJob(REVIEW_APP_BUILD, id));
  });
}

/** The build system's reviewer approves or rejects a checked build; the first approved build of an app verifies the
 * app. */
export async function reviewAppBuild(db: Knex, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const build = await lockBuild(trx, id, 'pending');
    if (!build) return;
    const outcome = await buildSystem().review({ platform: build.platform, supported_app_view_types: build.supported_app_view_types });
    if (!outcome.approved) {
      await reviewed(trx, build, { status: transition('AppBuild', build.status, 'reject'), review_message: outcome.reason });
      await logBuildLine(trx, build, REVIEW_APP_BUILD, { source: 'console', level: 'error', message: `Review rejected the build: ${outcome.reason}` });
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
