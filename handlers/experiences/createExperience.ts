import type { Handler } from '../../runtime/handler.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { attach, productOfAccount } from './experience-products.js';

/** POST /experiences: the runtime has checked experience:create on account_id; product_id attaches it at once. */
export const createExperience: Handler<'createExperience'> = async ({ body }, ctx) => {
  const productId = body.product_id === undefined ? null : await productOfAccount(ctx.db, body.account_id, body.product_id);
  const id = newId('exp_');
  await ctx.db('experiences').insert({
    id, account_id: body.account_id, name: body.name ?? 'New experience', is_public: body.is_public ?? false, order: body.order ?? null,
  });
  if (productId) await attach(ctx.db, id, productId);
  const view = await readView(ctx.db, resources.Experience, id);
  await ctx.emit('experience.created', body.account_id, view);
  return view;
};
