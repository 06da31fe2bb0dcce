// The sandbox card network: what a card scheme and its merchants do with a purchase the issuer (handlers/cards/)
// approved. The card_network_step task settles it, or reverses it for the test merchant REVERSING_MERCHANT, by
// reporting to the cards area (handlers/cards/card-network-outcomes.ts), which applies it with the transaction
// locked; a transaction that has moved on is left alone, so a re-run job is harmless. Documented in docs/sandbox/card-network.md.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { addJob } from '../../runtime/jobs.js';
import { clockNow } from '../../runtime/clock.js';
import type { CardNetwork } from '../../handlers/cards/index.js';
import { takeCardNetworkOutcome } from '../../handlers/cards/index.js';

export const CARD_NETWORK_STEP = 'card_network_step';

/** A merchant (merchant_name, any case) that releases its authorisations instead of capturing them. */
export const REVERSING_MERCHANT = 'Reversing Merchant';

/** Seconds from authorisation to settlement or reversal (CARD_NETWORK_SECONDS scales them; 0: immediate). */
const SETTLE_SECONDS = 10;
const after = (seconds: number) => new Date(clockNow().getTime() + seconds * Number(process.env.CARD_NETWORK_SECONDS ?? 1) * 1000);

export const sandboxCardNetwork: CardNetwork = {
  async approved(db, purchase) {
    await addJob(db, CARD_NETWORK_STEP, { card_transaction_id: purchase.id },
      { jobKey: `${CARD_NETWORK_STEP}:${purchase.id}`, runAt: after(SETTLE_SECONDS) });
  },
};

/** Settles or reverses a pending transaction; returns the status reached, or null when there was nothing to do. */
export async function stepCardTransaction(db: Knex, id: string): Promise<string | null> {
  return takeCardNetworkOutcome(db, id, (purchase) =>
    (purchase.merchant_name.toLowerCase() === REVERSING_MERCHANT.toLowerCase() ? 'reverse' : 'settle'));
}

export const cardNetworkStepTask = (db: Knex): Task => async (payload) => {
  await stepCardTransaction(db, (payload as { card_transaction_id: string }).card_transaction_id);
};
