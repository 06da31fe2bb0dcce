import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import type { Row } from './catalogue-access.js';
import { productView, productsWithAccount } from './product-view.js';

/** GET /products: one account's (checked by the runtime) or those of every account readable; never deleted ones. */
export const listProducts: Handler<'listProducts'> = async ({ query }, ctx) => {
  const q = productsWithAccount(ctx.db).whereNull('products.deleted_at');
  if (query.account_id) q.where('products.account_id', query.account_id);
  else await ctx.access.whereHolds(q, 'products.account_id', 'product:basic:read');
  if (query.visibility) q.where('products.visibility', query.visibility);
  const { rows, page_info } = await paginate<Row & { id: string }>(q, query, {
    defaultSize: ctx.defaultPageSize, direction: query.direction,
    sortColumn: 'products.created_at', idColumn: 'products.id',
  });
  return { data: rows.map(productView), page_info };
};
