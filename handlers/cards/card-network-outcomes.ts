// The card network's outcome for a pending purchase, applied by this area in one transaction with the transaction
// locked and re-read: settled (the hold becomes a spend) or reversed (the hold is released), its money posted
// (cards-ledger.ts) and its event recorded. A transaction no longer pending is left alone, so a re-run job is harmless.
import type { Knex } from 'knex';
import { recordEvent } from '../../generated/events.js';
import { transition } from '../../generated/state-machine.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { findCardsLedger, postReversed, postSettled } from './cards-ledger.js';
import type { ApprovedPurchase } from './card-network-port.js';

export type CardNetworkOutcome = 'settle' | 'reverse';

/** Applies the network's outcome (asked of `outcome` once the transaction is locked and still pending); returns
 * the status reached, or null when there was nothing to do. */
export async function takeCardNetworkOutcome(db: Knex, id: string,
  outcome: (purchase: ApprovedPurchase) => CardNetworkOutcome): Promise<string | null> {
  return db.transaction(async (trx) => {
    const t = await trx('card_transactions').where({ id }).forUpdate().first();
    if (!t || t.status !== 'pending') return null;
    const action = outcome({ id: t.id, merchant_name: t.merchant_name });
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
