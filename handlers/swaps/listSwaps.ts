// Written by hand, not declared plain: narrowed to one balance, an account or a user's personal wallet (owner_id),
// reached by the destination rules (deposits/destination.ts), not by an account column.
import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { ownBalanceOr, requireDestination } from '../deposits/index.js';
import { swapView, type SwapRow } from './swap-view.js';

/** GET /swaps: one balance's, newest first, keyset-paginated over (owner_id, created_at, id). */
export const listSwaps: Handler<'listSwaps'> = async ({ query }, ctx) => {
  const owner = ownBalanceOr(ctx, query.account_id);
  await requireDestination(ctx, owner, 'crypto_wallet:trade:read', 'account_id');
  const q = ctx.db('swaps').select('*').where({ owner_id: owner });
  const { rows, page_info } = await paginate<SwapRow & { id: string }>(q, query, {
    sortColumn: 'created_at', idColumn: 'id', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map(swapView), page_info };
};
