// The issuer's answer to a card network's authorisation request, decided at once in the request's transaction:
// declined (and recorded) when the card is frozen or canceled or the cards balance cannot cover it, else approved,
// its amount held and the purchase handed back to the network (card-network-port.ts), which settles or reverses it.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { query } from '../../runtime/request-db.js';
import type { CardRow, CardTransactionRow, Tables } from '../../generated/rows.js';
import { findCardsLedger, postAuthorized } from './cards-ledger.js';
import { notifyCardTransaction } from './card-notifications.js';
import { cardNetwork } from './card-network-port.js';

export interface Purchase { amount: number; currency: string; merchant_name: string; merchant_category?: string | null }

/** The cards balance's available amount, its row locked so concurrent authorisations decide one after another. */
async function lockedAvailable(db: Knex, ledger: string | null, currency: string): Promise<number> {
  if (!ledger) return 0;
  const [row] = await query<Pick<Tables['ledger_balances'], 'amount'>>(db,
    `select amount from ledger_balances where ledger_id = $1 and currency = $2 and bucket = 'available' for update`, [ledger, currency]);
  return Number(row?.amount ?? 0);
}

function declineReason(card: CardRow, available: number, amount: number): string | null {
  if (card.status === 'canceled') return 'card_canceled';
  if (card.status === 'frozen') return 'card_frozen';
  return available < amount ? 'insufficient_funds' : null;
}

/** Authorises a purchase on a card (locked by the caller): the transaction row, pending or declined. */
export async function authorize(db: Knex, card: CardRow, purchase: Purchase): Promise<CardTransactionRow> {
  const ledger = await findCardsLedger(db, card.account_id);
  const available = await lockedAvailable(db, ledger, purchase.currency);
  const reason = declineReason(card, available, purchase.amount);
  const [row]: CardTransactionRow[] = await db('card_transactions').insert({
    id: newId('citx_'), account_id: card.account_id, card_id: card.id, cardholder_id: card.cardholder_id,
    status: reason ? 'declined' : 'pending', currency: purchase.currency, amount: purchase.amount,
    merchant_name: purchase.merchant_name, merchant_category: purchase.merchant_category ?? null, decline_reason: reason,
  }).returning('*');
  if (!reason) {
    await postAuthorized(db, ledger!, { id: row.id, amount: purchase.amount, currency: purchase.currency });
    await cardNetwork().approved(db, { id: row.id, merchant_name: row.merchant_name });
  }
  await notifyCardTransaction(db, row);
  return row;
}
