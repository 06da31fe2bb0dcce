// Written by hand, not declared plain: checks the membership, attaches files (another table) and queues moderation.
import type { Handler } from '../../generated/handler.js';
import { conflict, forbidden, invalid, notFound } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { queueModeration } from './moderate.js';
import { readyFiles } from '../files/index.js';

/** Payments that mean the member paid for the product (a refund later does not undo having paid). */
const PAID = ['succeeded', 'refunded', 'partially_refunded'];

/** POST /reviews: a member reviews a product they hold or held a membership of; pending until moderated. */
export const createReview: Handler<'createReview'> = async ({ body }, ctx) => {
  const userId = ctx.principal.userId!;
  const product = await ctx.db('products').where({ id: body.product_id }).whereNull('deleted_at').first('id', 'account_id');
  if (!product) throw notFound('product', body.product_id, 'product_id');
  const membership = await ctx.db('memberships').where({ user_id: userId, product_id: product.id }).first('id');
  if (!membership) throw forbidden('Only members of the product can review it');
  const member = await ctx.db('members').where({ account_id: product.account_id, user_id: userId }).first('joined_at');
  const paid = await ctx.db('payments').where({ user_id: userId, product_id: product.id }).whereIn('status', PAID).first('id');
  const attachments = body.attachments ?? [];
  for (const [i, a] of attachments.entries()) {
    if (attachments.findIndex((b) => b.id === a.id) < i) throw invalid(`The file ${a.id} is attached twice`, `attachments[${i}].id`);
  }
  await readyFiles(ctx, attachments.map((a, i) => ({ id: a.id, field: `attachments[${i}].id` })));
  const id = newId('rev_');
  const inserted = await ctx.db('reviews').insert({
    id, account_id: product.account_id, product_id: product.id, user_id: userId, stars: body.stars,
    title: body.title ?? null, description: body.description ?? null, paid_for_product: !!paid, joined_at: member?.joined_at ?? null,
  }).onConflict(['product_id', 'user_id']).ignore().returning('id');
  if (inserted.length === 0) throw conflict('You have already reviewed this product', 'product_id');
  if (attachments.length) await ctx.db('review_attachments').insert(attachments.map((a, position) => ({ review_id: id, position, file_id: a.id })));
  await queueModeration(ctx.db, id);
  const view = await readView(ctx.db, resources.Review, id);
  await ctx.emit('review.created', product.account_id, view);
  return view;
};
