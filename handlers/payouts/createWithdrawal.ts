// Written by hand, not declared plain: money: a payout through request-payout.ts, answered in the legacy withdrawal shape.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { requestPayout } from './request-payout.js';
import { withdrawalView } from './withdrawal-view.js';

/**
 * POST /withdrawals (pins before 2026-08-21): a payout request in the legacy body, through POST /payouts' code path
 * (request-payout.ts), answered in the withdrawal shape. A stablecoin payout requested so is a conversion request,
 * as POST /payouts' at these pins.
 */
export const createWithdrawal: Handler<'createWithdrawal'> = async ({ body }, ctx) => {
  if (body.platform_covers_fees) throw invalid('The sandbox takes the payout fee from the amount; platform_covers_fees must be false', 'platform_covers_fees');
  const methodId: string | undefined = body.payout_method_id ?? (await ctx.db('payout_methods')
    .where({ account_id: body.company_id, is_default: true }).first('id'))?.id;
  if (!methodId) throw invalid(`${body.company_id} has no default payout method; send payout_method_id`, 'payout_method_id');
  const { row } = await requestPayout(ctx, {
    account_id: body.company_id, payout_method_id: methodId, amount: String(body.amount), currency: body.currency, speed: 'standard', conversion_request: true,
  });
  return withdrawalView(row);
};
