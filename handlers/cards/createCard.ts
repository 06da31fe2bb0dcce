// Written by hand, not declared plain: money: opens the cards balance, makes the cardholder (and notifies them), refused by the account's preferences.
import type { Handler } from '../../generated/handler.js';
import { ApiError, invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { loadPreferences } from '../account_preferences/index.js';
import { cardsLedgerOf } from './cards-ledger.js';
import { cardholderFor, newCardFacts } from './card-issuing.js';
import { notifyCardholderOnboarding } from './card-notifications.js';

/**
 * POST /cards: refused while the account's cards_notifications preference is false (the seed's rule); else the
 * card goes to assigned_user_id (default: the caller's own user, or the account's owner for an API key), whose
 * cardholder is made with their first card (and told so in their notifications), and the account's cards balance
 * is opened if it has none.
 */
export const createCard: Handler<'createCard'> = async ({ body }, ctx) => {
  const accountId = body.account_id;
  const preferences = await loadPreferences(ctx.db, accountId);
  if (!preferences.cards_notifications) {
    throw new ApiError(400, 'invalid_state',
      'Cards cannot be requested while the account preference cards_notifications is false; turn it on first.', 'cards_notifications');
  }
  const userId = body.assigned_user_id ?? ctx.principal.userId
    ?? (await ctx.db('accounts').where({ id: accountId }).first('owner_user_id'))?.owner_user_id;
  if (!userId) throw invalid('This account has no owner to hold the card: name assigned_user_id', 'assigned_user_id');
  const holder = await cardholderFor(ctx.db, accountId, userId);
  await cardsLedgerOf(ctx.db, accountId);
  const [row] = await ctx.db('cards').insert({
    id: newId('icrd_'), account_id: accountId, cardholder_id: holder.row.id, user_id: userId, name: body.name ?? null,
    status: 'active', ...newCardFacts(),
  }).returning('*');
  if (holder.made) await notifyCardholderOnboarding(ctx.db, holder.row as { id: string; account_id: string; user_id: string }, row.id);
  const view = resources.Card.view(row);
  await ctx.emit('card.created', accountId, view);
  return view;
};
