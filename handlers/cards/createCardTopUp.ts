// Written by hand, not declared plain: money: a ledger entry from the business balance to the cards balance.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { postTopUp } from './cards-ledger.js';

/**
 * POST /card_top_ups: business available -> cards available in one entry (the cards balance opened if need be); a
 * business balance that does not cover it is a 400 insufficient_funds from the floor, and the request's
 * transaction takes the row back with it.
 */
export const createCardTopUp: Handler<'createCardTopUp'> = async ({ body }, ctx) => {
  const [row] = await ctx.db('card_top_ups').insert({
    id: newId('ctop_'), account_id: body.account_id, source: 'balance', currency: body.currency ?? 'usd', amount: body.amount,
  }).returning('*');
  await postTopUp(ctx.db, { ...row, amount: Number(row.amount) });
  const view = resources.CardTopUp.view(row);
  await ctx.emit('card_top_up.created', body.account_id, view);
  return view;
};
