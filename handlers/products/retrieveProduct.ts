import type { Handler } from '../../runtime/handler.js';
import { loadOwned } from './catalogue-access.js';
import { productView, productsWithAccount } from './product-view.js';

/** GET /products/{id} */
export const retrieveProduct: Handler<'retrieveProduct'> = async ({ path }, ctx) => {
  const row = await loadOwned(ctx, 'products', 'product', path.id, 'product:basic:read',
    { softDeleted: true, query: productsWithAccount });
  return productView(row);
};
