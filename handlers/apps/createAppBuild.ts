// Written by hand, not declared plain: queues the build check in the same transaction.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { readyFile } from '../files/index.js';
import { buildJob, CHECK_APP_BUILD } from './build-jobs.js';
import { loadApp } from './load-app.js';

/** POST /app_builds: recorded draft with the check queued in the same transaction; the build system does the rest. */
export const createAppBuild: Handler<'createAppBuild'> = async ({ body }, ctx) => {
  const appId = body.app_id ?? ctx.principal.appId;
  if (!appId) throw invalid('app_id is required unless the credential is the app\'s own API key', 'app_id');
  const app = await loadApp(ctx, appId, ['developer:manage_builds'], 'app_id');
  const fileId = (await readyFile(ctx, body.attachment.id, 'attachment.id')).id;
  const sourceFileId = body.source_attachment ? (await readyFile(ctx, body.source_attachment.id, 'source_attachment.id')).id : null;
  const id = newId('apbu_');
  await ctx.db('app_builds').insert({
    id,
    account_id: app.account_id,
    app_id: app.id,
    platform: body.platform,
    checksum: body.checksum.toLowerCase(),
    file_id: fileId,
    source_file_id: sourceFileId,
    supported_app_view_types: [...new Set(body.supported_app_view_types ?? [])],
    ai_prompt_id: body.ai_prompt_id ?? null,
  });
  await ctx.addJob(...buildJob(CHECK_APP_BUILD, id));
  const view = await readView(ctx.db, resources.AppBuild, id);
  await ctx.emit('app_build.created', app.account_id, view);
  return view;
};
