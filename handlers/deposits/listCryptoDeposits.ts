// Written by hand, not declared plain: narrowed to one balance, an account or a user's personal wallet (owner_id),
// reached by the destination rules (deposits/destination.ts), not by an account column.
import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { cryptoDepositView, type DepositRow } from './crypto-deposits.js';
import { ownBalanceOr, requireDestination } from './destination.js';

/** GET /crypto_deposits: one destination's, newest first, keyset-paginated over (owner_id, created_at, id). */
export const listCryptoDeposits: Handler<'listCryptoDeposits'> = async ({ query }, ctx) => {
  const owner = ownBalanceOr(ctx, query.account_id);
  await requireDestination(ctx, owner, 'company:balance:read', 'account_id');
  const q = ctx.db('crypto_deposits').select('*').where({ owner_id: owner });
  if (query.status) q.where({ status: query.status });
  const { rows, page_info } = await paginate<DepositRow & { id: string }>(q, query, {
    sortColumn: 'created_at', idColumn: 'id', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map(cryptoDepositView), page_info };
};
