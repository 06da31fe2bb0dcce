// cards_auto_top_up (an account preference): incoming funds go to the account's cards balance instead of its
// business balance. The hook is where payment funds become spendable, at clearing (clearing.ts), so it lives with
// the clearing sweep rather than in handlers/cards/, which posts through the ledger and is above it:
// a cleared USD payment's net amount is posted to the cards balance's available bucket, in the clearing's own
// entry, and recorded as a top-up of source auto. Without a cards balance the preference reads false, and nothing
// moves there.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { recordEvent } from '../../generated/events.js';
import { resources } from '../../generated/resources.js';

/** The currency cards spend in; the cards balance holds nothing else. */
export const CARDS_CURRENCY = 'usd';

/** The cards balance cleared funds of this payment go to, or null when they stay on the business balance. */
export async function autoTopUpLedger(db: Knex, payment: { account_id: string; currency: string }): Promise<string | null> {
  if (payment.currency !== CARDS_CURRENCY) return null;
  const row = await db('ledger_accounts as l').join('account_preferences as p', 'p.account_id', 'l.account_id')
    .where({ 'l.account_id': payment.account_id, 'l.kind': 'cards' })
    .whereRaw(`(p.document->>'cards_auto_top_up')::boolean`).first('l.id');
  return row?.id ?? null;
}

export async function recordAutoTopUp(db: Knex, payment: { id: string; account_id: string; currency: string }, amount: number): Promise<void> {
  const [row] = await db('card_top_ups').insert({
    id: newId('ctop_'), account_id: payment.account_id, source: 'auto', payment_id: payment.id, currency: payment.currency, amount,
  }).returning('*');
  await recordEvent(db, 'card_top_up.created', payment.account_id, resources.CardTopUp.view(row));
}
