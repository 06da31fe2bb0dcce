// Written by hand, not declared plain: it locks the app before the build (the build system's order, so two promotions of one app serialise), which the plain loader cannot.
import type { Handler } from '../../generated/handler.js';
import { ApiError } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';

const PROMOTABLE = new Set(['approved', 'draft']);

/** POST /app_builds/{id}/promote: the app is locked before the build (the build system's order), so two promotions
 * of one app's builds serialise and exactly one build per platform ends up production. */
export const promoteAppBuild: Handler<'promoteAppBuild'> = async ({ path }, ctx) => {
  const seen = await loadOwned(ctx, resources.AppBuild, path.id, ['developer:manage_builds']);
  await ctx.db('apps').where({ id: seen.app_id }).forUpdate().first('id');
  const build = await loadOwned(ctx, resources.AppBuild, path.id, ['developer:manage_builds'], { read: 'lock' });
  if (build.is_production) return resources.AppBuild.view(build);
  if (!PROMOTABLE.has(build.status)) {
    throw new ApiError(400, 'invalid_state', `Only an approved or draft build can be promoted; this one is ${build.status}`, 'status');
  }
  await ctx.db('app_builds').where({ app_id: build.app_id, platform: build.platform, is_production: true })
    .update({ is_production: false, updated_at: nowMs(ctx.db) });
  await ctx.db('app_builds').where({ id: build.id }).update({ is_production: true, updated_at: nowMs(ctx.db) });
  if (build.platform === 'web') {
    await ctx.db('apps').where({ id: build.app_id }).update({ production_web_build_id: build.id, updated_at: nowMs(ctx.db) });
  }
  const view = await readView(ctx.db, resources.AppBuild, build.id);
  await ctx.emit('app_build.promoted', build.account_id, view);
  return view;
};
