import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { nowMs } from '../shared/now.js';

/** POST /experiences/{id}/detach: a product it is not attached to is a 404, like an unknown one. */
export const detachExperience: Handler<'detachExperience'> = async ({ path, body }, ctx) => {
  const row = await loadOwned(ctx, resources.Experience, path.id, ['experience:update'], { forUpdate: true });
  const removed = await ctx.db('experience_products').where({ experience_id: row.id, product_id: body.product_id }).delete();
  if (removed === 0) throw notFound('attached product', body.product_id, 'product_id');
  await ctx.db('experiences').where({ id: row.id }).update({ updated_at: nowMs(ctx.db) });
  const view = await readView(ctx.db, resources.Experience, row.id as string);
  await ctx.emit('experience.updated', row.account_id as string, view);
  return view;
};
