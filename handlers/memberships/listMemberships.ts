// Written by hand, not declared plain: the rows of the accounts where the scope is held plus a user token's own
// memberships as a buyer, and account_id falls back to the buyer's own rows there (shared/buyer-rows.ts).
import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { whereEqual } from '../../runtime/filters.js';
import type { MembershipRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';
import { whereReadable } from '../shared/buyer-rows.js';

/** GET /memberships: every readable membership (managed accounts' plus a user's own), newest first. */
export const listMemberships: Handler<'listMemberships'> = async ({ query }, ctx) => {
  const q = ctx.db('memberships');
  await whereReadable(ctx, q, 'member:basic:read', { account: 'memberships.account_id', user: 'memberships.user_id' }, query.account_id);
  whereEqual(q, query, {
    user_id: 'memberships.user_id', user_ids: 'memberships.user_id',
    product_id: 'memberships.product_id', product_ids: 'memberships.product_id',
    plan_id: 'memberships.plan_id', plan_ids: 'memberships.plan_id',
    status: 'memberships.status', statuses: 'memberships.status',
  });
  const { rows, page_info } = await paginate<MembershipRow>(q, query, {
    sortColumn: 'memberships.created_at', idColumn: 'memberships.id', direction: 'desc', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map(resources.Membership.view), page_info };
};
