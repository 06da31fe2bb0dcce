import type { Handler } from '../../runtime/handler.js';
import { nowMs } from '../shared/now.js';
import { loadVariant } from './load-variant.js';
import { variantView } from './variant-view.js';

/**
 * DELETE /variants/{id} (and the deprecated DELETE /plans/{id}): a soft delete. The variant is a 404 from then on
 * and stops selling; memberships already sold keep it (payments/pricing.ts lets their holders renew).
 */
export const deleteVariant: Handler<'deleteVariant'> = async ({ path }, ctx) => {
  const row = await loadVariant(ctx, path.id, 'plan:delete');
  const stamp = nowMs(ctx.db);
  await ctx.db('plans').where({ id: row.id }).update({ deleted_at: stamp, updated_at: stamp });
  await ctx.emit('plan.deleted', row.account_id, variantView(row));
  return { id: row.id, deleted: true };
};
