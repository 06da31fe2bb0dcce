import type { Handler } from '../../runtime/handler.js';
import { forbidden, notFound } from '../../runtime/errors.js';
import { refundView } from './refund-view.js';

/** GET /refunds/{id}: needs payment:basic:read on the refund's account (404 when invisible). */
export const retrieveRefund: Handler<'retrieveRefund'> = async ({ path }, ctx) => {
  const row = await ctx.db('refunds').where({ id: path.id }).first();
  const held = row ? await ctx.access.scopesOn(row.account_id) : null;
  if (!row || !held) throw notFound('refund', path.id, 'id');
  if (!held.has('payment:basic:read')) throw forbidden(`This credential lacks the payment:basic:read permission on ${row.account_id}`);
  return refundView(row);
};
