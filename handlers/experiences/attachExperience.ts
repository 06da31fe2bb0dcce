import type { Handler } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { nowMs } from '../shared/now.js';
import { attach, productOfAccount } from './experience-products.js';

/** POST /experiences/{id}/attach: a product of the experience's own account; attaching twice changes nothing. */
export const attachExperience: Handler<'attachExperience'> = async ({ path, body }, ctx) => {
  const row = await loadOwned(ctx, resources.Experience, path.id, ['experience:update'], { forUpdate: true });
  const productId = await productOfAccount(ctx.db, row.account_id as string, body.product_id);
  if (!(await attach(ctx.db, row.id as string, productId))) return resources.Experience.view(row);
  await ctx.db('experiences').where({ id: row.id }).update({ updated_at: nowMs(ctx.db) });
  const view = await readView(ctx.db, resources.Experience, row.id as string);
  await ctx.emit('experience.updated', row.account_id as string, view);
  return view;
};
