import type { Handler } from '../../runtime/handler.js';
import { loadOwned } from './catalogue-access.js';
import { nowMs } from '../shared/now.js';
import { productView, productsWithAccount } from './product-view.js';

/** DELETE /products/{id}: a soft delete of the product and its variants, which are 404 from then on. */
export const deleteProduct: Handler<'deleteProduct'> = async ({ path }, ctx) => {
  const row = await loadOwned(ctx, 'products', 'product', path.id, 'product:delete',
    { softDeleted: true, forUpdate: true, query: productsWithAccount });
  await ctx.db('products').where({ id: row.id }).update({ deleted_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
  await ctx.db('plans').where({ product_id: row.id }).whereNull('deleted_at')
    .update({ deleted_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
  await ctx.emit('product.deleted', row.account_id, productView(row));
  return { id: row.id, deleted: true };
};
