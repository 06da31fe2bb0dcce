// The sandbox card network: what a card scheme and its merchants would do with a card purchase, as real state
// (card_transactions rows) moved by background jobs (graphile-worker). An authorisation is decided at once, in the
// request's transaction: declined (and recorded) when the card is frozen or canceled or the cards balance cannot
// cover it, else approved and its amount held. The card_network_step task then settles it, or reverses it for the
// test merchant REVERSING_MERCHANT, in one transaction with the transaction locked and re-read; a step whose
// transaction has moved on does nothing, so a re-run job is harmless. Documented in the README.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { newId } from '../../runtime/ids.js';
import { addJob } from '../../runtime/jobs.js';
import { clockNow } from '../../runtime/clock.js';
import { recordEvent } from '../../runtime/events.js';
import { transition } from '../../runtime/state-machine.js';
import { query } from '../../runtime/request-db.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { findCardsLedger, postAuthorized, postReversed, postSettled } from '../cards/cards-ledger.js';
import { notifyCardTransaction } from '../cards/card-notifications.js';

export const CARD_NETWORK_STEP = 'card_network_step';

/** A merchant (merchant_name, any case) that releases its authorisations instead of capturing them. */
export const REVERSING_MERCHANT = 'Reversing Merchant';

/** Seconds from authorisation to settlement or reversal (CARD_NETWORK_SECONDS scales them; 0: immediate). */
const SETTLE_SECONDS = 10;
const after = (seconds: number) => new Date(clockNow().getTime() + seconds * Number(process.env.CARD_NETWORK_SECONDS ?? 1) * 1000);

export interface Purchase { amount: number; currency: string; merchant_name: string; merchant_category?: string | null }
import type { Row } from '../../runtime/plain/stored-resource.js';

/** The cards balance's available amount, its row locked so concurrent authorisations decide one after another. */
async function lockedAvailable(db: Knex, ledger: string | null, currency: string): Promise<number> {
  if (!ledger) return 0;
  const [row] = await query<{ amount: string }>(db,
    `select amount from ledger_balances where ledger_id = $1 and currency = $2 and bucket = 'available' for update`, [ledger, currency]);
  return Number(row?.amount ?? 0);
}

function declineReason(card: Row, available: number, amount: number): string | null {
  if (card.status === 'canceled') return 'card_canceled';
  if (card.status === 'frozen') return 'card_frozen';
  return available < amount ? 'insufficient_funds' : null;
}

/** Authorises a purchase on a card (locked by the caller): the transaction row, pending or declined. */
export async function authorize(db: Knex, card: Row, purchase: Purchase): Promise<Row> {
  const ledger = await findCardsLedger(db, card.account_id);
  const available = await lockedAvailable(db, ledger, purchase.currency);
  const reason = declineReason(card, available, purchase.amount);
  const [row] = await db('card_transactions').insert({
    id: newId('citx_'), account_id: card.account_id, card_id: card.id, cardholder_id: card.cardholder_id,
    status: reason ? 'declined' : 'pending', currency: purchase.currency, amount: purchase.amount,
    merchant_name: purchase.merchant_name, merchant_category: purchase.merchant_category ?? null, decline_reason: reason,
  }).returning('*');
  if (!reason) {
    await postAuthorized(db, ledger!, { id: row.id, amount: purchase.amount, currency: purchase.currency });
    await addJob(db, CARD_NETWORK_STEP, { card_transaction_id: row.id },
      { jobKey: `${CARD_NETWORK_STEP}:${row.id}`, runAt: after(SETTLE_SECONDS) });
  }
  await notifyCardTransaction(db, row as Parameters<typeof notifyCardTransaction>[1]);
  return row;
}

/** Settles or reverses a pending transaction; returns the status reached, or null when there was nothing to do. */
export async function stepCardTransaction(db: Knex, id: string): Promise<string | null> {
  return db.transaction(async (trx) => {
    const t = await trx('card_transactions').where({ id }).forUpdate().first();
    if (!t || t.status !== 'pending') return null;
    const action = t.merchant_name.toLowerCase() === REVERSING_MERCHANT.toLowerCase() ? 'reverse' : 'settle';
    const status = transition('CardTransaction', t.status, action);
    const ledger = (await findCardsLedger(trx, t.account_id))!;
    const movement = { id: t.id, amount: Number(t.amount), currency: t.currency };
    if (action === 'settle') await postSettled(trx, ledger, movement);
    else await postReversed(trx, ledger, movement);
    const [row] = await trx('card_transactions').where({ id }).update({
      status, updated_at: nowMs(trx), ...(action === 'settle' ? { settled_at: nowMs(trx) } : { reversed_at: nowMs(trx) }),
    }).returning('*');
    await recordEvent(trx, action === 'settle' ? 'card_transaction.settled' : 'card_transaction.reversed', t.account_id,
      resources.CardTransaction.view(row));
    return status;
  });
}

export const cardNetworkStepTask = (db: Knex): Task => async (payload) => {
  await stepCardTransaction(db, (payload as { card_transaction_id: string }).card_transaction_id);
};
