// Written by hand, not declared plain: an older version's shape (withdrawal-view.ts) of payouts joined with their
// methods.
import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { withdrawalView } from './withdrawal-view.js';
import { payoutsWithMethod, type PayoutRow } from './payout-view.js';

/**
 * GET /withdrawals (pins before 2026-08-21): the account's payouts in the withdrawal shape, newest first unless
 * direction asc; the runtime checked payout:account:read on company_id.
 */
export const listWithdrawals: Handler<'listWithdrawals'> = async ({ query }, ctx) => {
  const q = payoutsWithMethod(ctx.db)
    .where('p.account_id', query.company_id);
  if (query.created_after) q.where('p.created_at', '>', query.created_after);
  if (query.created_before) q.where('p.created_at', '<', query.created_before);
  const { rows, page_info } = await paginate<PayoutRow & { id: string }>(q, query, {
    sortColumn: 'p.created_at', idColumn: 'p.id', direction: query.direction ?? 'desc', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map(withdrawalView), page_info };
};
