// Written by hand, not declared plain: checks the app and logo, and attaches a product (another table).
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { attach, productOfAccount } from './experience-products.js';
import { appForExperience, logoFile } from './experience-settings.js';

/** POST /experiences: the runtime has checked experience:create on account_id; app_id and logo are checked
 * (experience-settings.ts); product_id attaches it at once. */
export const createExperience: Handler<'createExperience'> = async ({ body }, ctx) => {
  const productId = body.product_id === undefined ? null : await productOfAccount(ctx.db, body.account_id, body.product_id);
  const appId = body.app_id === undefined ? null : await appForExperience(ctx.db, body.account_id, body.app_id);
  const logoFileId = body.logo === undefined ? null : await logoFile(ctx, body.logo);
  const id = newId('exp_');
  await ctx.db('experiences').insert({
    id, account_id: body.account_id, name: body.name ?? 'New experience', is_public: body.is_public ?? false, order: body.order ?? null,
    app_id: appId, logo_file_id: logoFileId,
  });
  if (productId) await attach(ctx.db, id, productId);
  const view = await readView(ctx.db, resources.Experience, id);
  await ctx.emit('experience.created', body.account_id, view);
  return view;
};
