// Written by hand, not declared plain: narrowed to an account or a user's wallet, or to every readable account plus
// the caller's own wallet; each view is made with its method.
import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { ownerOf } from './payout-owner.js';
import { payoutView, payoutsWithMethod, type PayoutRow } from './payout-view.js';

const SCOPE = 'payout:account:read';

/**
 * GET /payouts: newest first, of one owner (account_id, or user_id: the caller's own wallet), or without either of
 * every account where the caller holds payout:account:read and of its own wallet.
 */
export const listPayouts: Handler<'listPayouts'> = async ({ query }, ctx) => {
  const q = payoutsWithMethod(ctx.db);
  if (query.account_id || query.user_id) {
    const owner = ownerOf(ctx, query);
    q.where(owner.account_id ? { 'p.account_id': owner.account_id } : { 'p.user_id': owner.user_id });
  } else {
    const accounts = ctx.db('accounts').select('id');
    await ctx.access.whereHolds(accounts, 'id', SCOPE);
    const ownUser = ctx.principal.kind === 'user_token' ? ctx.principal.userId : null;
    q.where((w) => {
      w.whereIn('p.account_id', accounts);
      if (ownUser) w.orWhere('p.user_id', ownUser);
    });
  }
  if (query.currency) q.where('p.currency', query.currency);
  if (query.status) q.where('p.status', query.status);
  const { rows, page_info } = await paginate<PayoutRow & { id: string }>(q, query, {
    sortColumn: 'p.created_at', idColumn: 'p.id', defaultSize: ctx.defaultPageSize,
  });
  const data = [];
  for (const row of rows) data.push(await payoutView(ctx.db, row));
  return { data, page_info };
};
