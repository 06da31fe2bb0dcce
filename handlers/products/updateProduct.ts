import type { Handler } from '../../runtime/handler.js';
import { mergeMetadata } from '../accounts/account-metadata.js';
import { loadOwned } from './catalogue-access.js';
import { nowMs } from '../shared/now.js';
import { loadProductView, productView, productsWithAccount } from './product-view.js';

const PLAIN = ['title', 'description', 'visibility', 'includes_license'] as const;

/** PATCH /products/{id}: only the fields sent; nothing written (and no event) when nothing differs. */
export const updateProduct: Handler<'updateProduct'> = async ({ path, body }, ctx) => {
  const row = await loadOwned(ctx, 'products', 'product', path.id, 'product:update',
    { softDeleted: true, forUpdate: true, query: productsWithAccount });
  const update: Record<string, unknown> = {};
  for (const field of PLAIN) {
    if (body[field] !== undefined && body[field] !== row[field]) update[field] = body[field];
  }
  if (body.metadata !== undefined) {
    const merged = mergeMetadata(row.metadata, body.metadata);
    if (JSON.stringify(merged) !== JSON.stringify(row.metadata)) update.metadata = JSON.stringify(merged);
  }
  if (Object.keys(update).length === 0) return productView(row);
  await ctx.db('products').where({ id: row.id }).update({ ...update, updated_at: nowMs(ctx.db) });
  const view = await loadProductView(ctx.db, row.id);
  await ctx.emit('product.updated', row.account_id, view);
  return view;
};
