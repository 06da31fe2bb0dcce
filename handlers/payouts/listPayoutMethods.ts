// Written by hand, not declared plain: narrowed to an account or a user's wallet (payout-owner.ts); each view is made
// with its rail and an optional quote, and older versions get available_destinations.
import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { ownerOf } from './payout-owner.js';
import { railOf } from './rails.js';
import { parseAmount } from './payout-money.js';
import { payoutMethodView, type PayoutMethodRow } from './payout-method-view.js';
import { availableDestinations } from './available-destinations.js';

/** GET /payouts/methods: an owner's saved methods, newest first; with amount, each quotes a payout of it. Only
 * callers pinned before 2026-07-30 can send include_available (the spec refuses it from then on). */
export const listPayoutMethods: Handler<'listPayoutMethods'> = async ({ query }, ctx) => {
  const owner = ownerOf(ctx, query);
  const q = ctx.db('payout_methods').where(owner.account_id ? { account_id: owner.account_id } : { user_id: owner.user_id });
  if (query.status) q.where({ status: query.status });
  const { rows, page_info } = await paginate<PayoutMethodRow & { id: string }>(q, query, { defaultSize: ctx.defaultPageSize });
  const data = [];
  for (const row of rows) {
    const rail = await railOf(ctx.db, row.supported_payout_method_id);
    data.push(payoutMethodView(row, rail, query.amount === undefined ? undefined : parseAmount(query.amount, rail.currency)));
  }
  if (!query.include_available) return { data, page_info };
  return { data, page_info, available_destinations: await availableDestinations(ctx.db, query.destination_id, query.amount) };
};
