import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { dropNulls } from '../../runtime/metadata.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';

/** POST /products: the runtime has checked account_id is visible and product:create is held on it. */
export const createProduct: Handler<'createProduct'> = async ({ body }, ctx) => {
  const id = newId('prod_');
  await ctx.db('products').insert({
    id,
    account_id: body.account_id,
    title: body.title,
    description: body.description ?? null,
    visibility: body.visibility,
    includes_license: body.includes_license,
    metadata: JSON.stringify(dropNulls(body.metadata)),
  });
  const view = await readView(ctx.db, resources.Product, id);
  await ctx.emit('product.created', body.account_id, view);
  return view;
};
