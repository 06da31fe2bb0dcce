// Written by hand, not declared plain: checks the scope of the exported resource and queues the job that writes the file.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { exportScope } from './exportable.js';
import { generateExportJob } from './generate.js';

/** POST /exports: a pending export at the caller's version, and the job that writes it. */
export const createExport: Handler<'createExport'> = async ({ body }, ctx) => {
  await ctx.access.require(body.account_id, [exportScope(body.resource)], 'account_id');
  const [row] = await ctx.db('exports').insert({
    id: newId('exprt_'), account_id: body.account_id, resource: body.resource, api_version: ctx.version, status: 'pending',
  }).returning('*');
  await ctx.addJob(...generateExportJob(row.id));
  return resources.Export.view({ ...row, $expires_at: null });
};
