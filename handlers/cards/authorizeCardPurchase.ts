// Written by hand, not declared plain: finds the card by the body's card_id and answers a new CardTransaction, not the card.
import type { Handler } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { authorize } from './authorize-purchase.js';

/**
 * POST /sandbox/card_network/authorizations: the sandbox card network asks to authorise a purchase on a card. The
 * card is locked (so a freeze or cancel is ordered with it) and the issuer decides (authorize-purchase.ts):
 * approved and held, or declined and recorded; 201 either way.
 */
export const authorizeCardPurchase: Handler<'authorizeCardPurchase'> = async ({ body }, ctx) => {
  const card = await loadOwned(ctx, resources.Card, body.card_id, ['card:manage'], { read: 'lock' });
  const row = await authorize(ctx.db, card, {
    amount: body.amount, currency: body.currency ?? 'usd', merchant_name: body.merchant_name, merchant_category: body.merchant_category,
  });
  const view = resources.CardTransaction.view(row);
  await ctx.emit('card_transaction.created', card.account_id, view);
  return view;
};
