// What cardholders hear, in their notifications. The account preference cards_notifications stops every card
// notification except the cardholder onboarding invitation (the seed's rule), so a new cardholder always hears
// they hold a card, and purchases are told only while the preference is on.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { loadPreferences } from '../account_preferences/index.js';

export async function notifyCardholderOnboarding(db: Knex, holder: { id: string; account_id: string; user_id: string }, cardId: string): Promise<void> {
  await db('notifications').insert({
    id: newId('ntf_'), user_id: holder.user_id, type: 'cardholder_onboarding',
    data: JSON.stringify({ cardholder_id: holder.id, account_id: holder.account_id, card_id: cardId }),
  });
}

export async function notifyCardTransaction(db: Knex, t: { id: string; account_id: string; cardholder_id: string; status: string;
  amount: number | string; currency: string; merchant_name: string; decline_reason: string | null }): Promise<void> {
  if (!(await loadPreferences(db, t.account_id)).cards_notifications) return;
  const holder = await db('cardholders').where({ id: t.cardholder_id }).first('user_id');
  await db('notifications').insert({
    id: newId('ntf_'), user_id: holder.user_id, type: 'card_transaction',
    data: JSON.stringify({ card_transaction_id: t.id, status: t.status, amount: Number(t.amount), currency: t.currency,
      merchant_name: t.merchant_name, decline_reason: t.decline_reason }),
  });
}
