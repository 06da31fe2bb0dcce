import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import type { Row } from '../products/catalogue-access.js';
import { variantView } from './variant-view.js';

/** GET /variants (and the deprecated GET /plans, which is this same function). */
export const listVariants: Handler<'listVariants'> = async ({ query }, ctx) => {
  const q = ctx.db('plans').whereNull('deleted_at');
  if (query.account_id) q.where('account_id', query.account_id);
  else await ctx.access.whereHolds(q, 'account_id', 'plan:basic:read');
  if (query.product_id) q.where('product_id', query.product_id);
  if (query.visibility) q.where('visibility', query.visibility);
  if (query.plan_type) q.where('plan_type', query.plan_type);
  const { rows, page_info } = await paginate<Row & { id: string }>(q, query, {
    defaultSize: ctx.defaultPageSize, direction: query.direction,
  });
  return { data: rows.map(variantView), page_info };
};
