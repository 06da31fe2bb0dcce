// Setup intent rows (with the buyer's user summary) -> the SetupIntent resource.
import type { Knex } from 'knex';
import type { SetupIntent } from '../../generated/types.js';
import { unseal } from '../../runtime/sealed-secrets.js';
import { setupIntentNextAction } from '../shared/authentication-link.js';
import type { Tables } from '../../generated/rows.js';

/** A setup intent's row (the columns below hold what this area writes: the API's values and objects) with its buyer's
 * username and name (setupIntentRows: null without a buyer). */
export type SetupIntentRow = Omit<Tables['setup_intents'], 'payment_method_type' | 'payment_instrument' | 'last_setup_error'> & {
  payment_method_type: SetupIntent['payment_method_type'];
  payment_instrument: SetupIntent['payment_instrument'];
  last_setup_error: SetupIntent['last_setup_error'];
  username: string | null;
  user_name: string | null;
};

/** Setup intents with the buyer summary; filter on `si.` columns. */
export const setupIntentRows = (db: Knex) =>
  db('setup_intents as si').leftJoin('users as u', 'u.id', 'si.user_id')
    .select('si.*', 'u.username', 'u.name as user_name');

/** `showSecret`: the caller may see client_secret here (create or retrieve, by a permitted caller). */
export function setupIntentView(row: SetupIntentRow, showSecret: boolean): SetupIntent {
  return {
    id: row.id,
    status: row.status as SetupIntent['status'],
    account_id: row.account_id,
    member_id: row.member_id,
    payment_method_id: row.payment_method_id,
    checkout_configuration_id: row.checkout_configuration_id,
    // the buyer's user exists (a foreign key): its username is set
    user: row.user_id ? { id: row.user_id, username: row.username!, name: row.user_name } : null,
    return_url: row.return_url,
    payment_method_type: row.payment_method_type,
    payment_instrument: row.payment_instrument,
    next_action: setupIntentNextAction(row) as SetupIntent['next_action'],
    last_setup_error: row.last_setup_error,
    client_secret: showSecret && row.created_via_api && row.client_secret ? unseal(row.client_secret) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
