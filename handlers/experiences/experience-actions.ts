// The rules of the changes to one experience (plain actions, spec/areas/experiences.yaml): the runtime finds and
// locks the experience under the owner rules (experience:update), runs the rule, and answers the experience as it is
// then. A change that changes nothing writes nothing and says so, and the declared experience.updated is not recorded.
import type { ActionHook } from '../../generated/plain-hooks.js';
import type { Tables } from '../../generated/rows.js';
import { notFound } from '../../runtime/errors.js';
import { nowMs } from '../shared/now.js';
import { attach as attachProduct, productOfAccount } from './experience-products.js';
import { logoFile } from './experience-settings.js';

/** attach: a product of the experience's own account; attaching twice changes nothing. */
export const attach: ActionHook<'attachExperience'> = async (experience, { body }, ctx) => {
  const productId = await productOfAccount(ctx.db, experience.account_id, body.product_id);
  if (!(await attachProduct(ctx.db, experience.id, productId))) return { unchanged: true };
  await ctx.db('experiences').where({ id: experience.id }).update({ updated_at: nowMs(ctx.db) });
};

/** detach: a product it is not attached to is a 404, like an unknown one. */
export const detach: ActionHook<'detachExperience'> = async (experience, { body }, ctx) => {
  const removed = await ctx.db('experience_products').where({ experience_id: experience.id, product_id: body.product_id }).delete();
  if (removed === 0) throw notFound('attached product', body.product_id, 'product_id');
  await ctx.db('experiences').where({ id: experience.id }).update({ updated_at: nowMs(ctx.db) });
};

/** update: the fields sent, logo as its file; written only when something differs. Not a plain update: logo is
 * not a column but a file checked and written as logo_file_id. */
export const update: ActionHook<'updateExperience'> = async (experience, { body }, ctx) => {
  const sent: Partial<Tables['experiences']> = {};
  if (body.name !== undefined) sent.name = body.name;
  if (body.is_public !== undefined) sent.is_public = body.is_public;
  if (body.order !== undefined) sent.order = body.order;
  if (body.logo !== undefined) sent.logo_file_id = await logoFile(ctx, body.logo);
  const changed = (Object.keys(sent) as (keyof typeof sent)[]).filter((column) => sent[column] !== experience[column]);
  if (!changed.length) return { unchanged: true };
  await ctx.db('experiences').where({ id: experience.id }).update({ ...sent, updated_at: nowMs(ctx.db) });
};
