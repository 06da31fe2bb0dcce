import type { DeleteHook } from '../../generated/plain-hooks.js';
import { nowMs } from '../shared/now.js';

/** DELETE /products/{id} (plain soft delete): the product's live variants are deleted with it, so they stop selling. */
export const deleteProduct: DeleteHook<'deleteProduct'> = async (product, _input, ctx) => {
  await ctx.db('plans').where({ product_id: product.id }).whereNull('deleted_at')
    .update({ deleted_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
};
