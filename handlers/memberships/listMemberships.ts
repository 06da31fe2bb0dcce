import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { membershipView, type MembershipRow } from './membership-view.js';
import { whereReadable } from './readable-rows.js';

/** GET /memberships: every readable membership (managed accounts' plus a user's own), newest first. */
export const listMemberships: Handler<'listMemberships'> = async ({ query }, ctx) => {
  const q = ctx.db('memberships');
  await whereReadable(ctx, q, 'member:basic:read', { account: 'memberships.account_id', user: 'memberships.user_id' }, query.account_id);
  if (query.user_id) q.where('memberships.user_id', query.user_id);
  if (query.product_id) q.where('memberships.product_id', query.product_id);
  if (query.plan_id) q.where('memberships.plan_id', query.plan_id);
  if (query.status) q.where('memberships.status', query.status);
  const { rows, page_info } = await paginate<MembershipRow>(q, query, {
    sortColumn: 'memberships.created_at', idColumn: 'memberships.id', direction: 'desc', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map(membershipView), page_info };
};
