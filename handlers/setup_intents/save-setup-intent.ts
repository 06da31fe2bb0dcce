// Saving a setup intent's payment method: in the background (job save_setup_intent), or inside the create request
// for versions before 2026-08-28. The outcome is the card's; each one is a SetupIntent transition and an event.
// A card that asked for 3D Secure is finished by the buyer on the sandbox's page (next_action) or by
// POST /setup_intents/{id}/confirm_action (authentication.ts), which save the method through the same savedChange.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { newId } from '../../runtime/ids.js';
import { recordEvent } from '../../generated/events.js';
import { canTransition, transition } from '../../generated/state-machine.js';
import { cardOutcome } from './card-outcome.js';
import { authenticationTokenHash } from '../shared/authentication-link.js';
import { setupIntentRows, setupIntentView, type SetupIntentRow } from './setup-intent-view.js';
import { nowMs } from '../shared/now.js';
import type { Tables } from '../../generated/rows.js';

export const SAVE_SETUP_INTENT = 'save_setup_intent';

/** Whose card is saved: a setup intent's row, or (payments with save_payment_method) the payment's buyer and member.
 * payment_method_id is the existing method a token-less intent saves. */
export interface SavedMethodOwner {
  account_id: string;
  user_id: string | null;
  member_id?: string | null;
  payment_method_id?: string | null;
}

type TokenRow = Tables['confirmation_tokens'];

/** The saved method for a succeeded intent (or payment): a new one from the confirmation token, or the existing one
 * (which gains the buyer as its member when it had none). */
export async function savedMethodId(db: Knex, row: SavedMethodOwner, token: TokenRow | undefined): Promise<string> {
  if (!token) {
    if (row.member_id) await db('payment_methods').where({ id: row.payment_method_id }).whereNull('member_id').update({ member_id: row.member_id });
    return row.payment_method_id as string;
  }
  const id = newId('payt_');
  await db('payment_methods').insert({
    id, account_id: row.account_id, user_id: row.user_id, member_id: row.member_id, type: 'card',
    card_brand: token.card_brand, last4: token.last4, exp_month: token.exp_month, exp_year: token.exp_year,
    fingerprint: token.fingerprint, test_behaviour: token.test_behaviour,
  });
  return id;
}

const tokenOf = (db: Knex, row: SetupIntentRow): Promise<TokenRow | undefined> =>
  (row.confirmation_token_id ? db('confirmation_tokens').where({ id: row.confirmation_token_id }).first() : Promise.resolve(undefined));

/** The change of a setup intent whose method is saved: status succeeded by `action` (succeed from processing for the
 * processor, complete_action from requires_action for confirm_action; anything else is 400 invalid_state before
 * anything is written), the saved payment_method_id, and no next_action or last_setup_error. `token` is the intent's
 * confirmation token when the caller already read it; otherwise it is read here. */
export async function savedChange(db: Knex, row: SetupIntentRow, action: 'succeed' | 'complete_action',
  token?: TokenRow): Promise<Record<string, unknown>> {
  const status = transition('SetupIntent', row.status, action);
  const payment_method_id = await savedMethodId(db, row, token ?? await tokenOf(db, row));
  return { status, payment_method_id, last_setup_error: null, next_action: null };
}

/** Writes `change` to the intent (with updated_at) and reads it back with its buyer summary. */
export async function applyChange(db: Knex, id: string, change: Record<string, unknown>): Promise<SetupIntentRow> {
  await db('setup_intents').where({ id }).update({ ...change, updated_at: nowMs(db) });
  return setupIntentRows(db).where('si.id', id).first();
}

/** Runs the save of a processing intent in `db` (a transaction); anything else is left as it is. */
export async function saveSetupIntent(db: Knex, setupIntentId: string): Promise<void> {
  const row: SetupIntentRow | undefined = await db('setup_intents').where({ id: setupIntentId }).forUpdate().first();
  // Only processing intents await the processor (require_action is allowed from processing alone).
  if (!row || !canTransition('SetupIntent', row.status, 'require_action')) return;
  const token = await tokenOf(db, row);
  const method = token ? undefined : await db('payment_methods').where({ id: row.payment_method_id }).first('test_behaviour');
  const outcome = cardOutcome(token ? token.test_behaviour : method?.test_behaviour ?? null);

  let change: Record<string, unknown>;
  let event: 'setup_intent.succeeded' | 'setup_intent.requires_action' | 'setup_intent.canceled';
  if (outcome.kind === 'saved') {
    change = await savedChange(db, row, 'succeed', token);
    event = 'setup_intent.succeeded';
  } else if (outcome.kind === 'requires_3ds') {
    // Stored without the url, which views make again from the id (handlers/shared/authentication-link.ts).
    const nextAction = { type: 'redirect_to_url', return_url: row.return_url };
    change = { status: transition('SetupIntent', row.status, 'require_action'), next_action: JSON.stringify(nextAction),
      authentication_token: authenticationTokenHash(row.id) };
    event = 'setup_intent.requires_action';
  } else {
    change = { status: transition('SetupIntent', row.status, 'cancel'), last_setup_error: JSON.stringify({ code: outcome.code, message: outcome.message }) };
    event = 'setup_intent.canceled';
  }
  const saved = await applyChange(db, row.id, change);
  // Stored with next_action as the row has it, without the step's url (a delivery puts it back).
  await recordEvent(db, event, row.account_id, { ...setupIntentView(saved, false), next_action: saved.next_action ?? null });
}

export function saveSetupIntentTask(db: Knex): Task {
  return async (payload) => {
    await db.transaction((trx) => saveSetupIntent(trx, (payload as { setup_intent_id: string }).setup_intent_id));
  };
}
