// Payouts: the rails money can leave by (supported payout methods, a reference table the sandbox rail owns), the
// destinations accounts and users save (payout methods), and payout requests with the rail's state.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';

interface Rail {
  id: string; name: string; delivery_type: string; countries: string[]; currency: string; speeds: string[];
  standard_fee_bps: number; standard_fee_fixed: number; instant_fee_bps: number; instant_fee_fixed: number;
  standard_arrival_seconds: number; instant_arrival_seconds: number | null; min_amount: number; max_amount: number;
  institution_name: string | null; position: number;
}

const DAY = 86_400;
/** The sandbox rail's methods. Fees: basis points of the amount plus a fixed part in the method's currency. */
export const RAILS: Rail[] = [
  { id: 'podst_us_ach', name: 'US bank account (ACH)', delivery_type: 'bank_account', countries: ['US'], currency: 'usd', speeds: ['standard', 'instant'],
    standard_fee_bps: 0, standard_fee_fixed: 0, instant_fee_bps: 100, instant_fee_fixed: 25, standard_arrival_seconds: 3 * DAY, instant_arrival_seconds: 1800,
    min_amount: 100, max_amount: 10_000_000, institution_name: null, position: 1 },
  { id: 'podst_debit_card', name: 'Debit card', delivery_type: 'debit_card', countries: ['US', 'CA', 'GB'], currency: 'usd', speeds: ['instant'],
    standard_fee_bps: 0, standard_fee_fixed: 0, instant_fee_bps: 150, instant_fee_fixed: 50, standard_arrival_seconds: 3 * DAY, instant_arrival_seconds: 1800,
    min_amount: 100, max_amount: 1_000_000, institution_name: null, position: 2 },
  { id: 'podst_sepa', name: 'SEPA bank transfer', delivery_type: 'bank_account', countries: ['DE', 'FR', 'ES', 'IT', 'NL', 'PT', 'IE'], currency: 'eur', speeds: ['standard'],
    standard_fee_bps: 0, standard_fee_fixed: 50, instant_fee_bps: 0, instant_fee_fixed: 0, standard_arrival_seconds: 2 * DAY, instant_arrival_seconds: null,
    min_amount: 100, max_amount: 10_000_000, institution_name: null, position: 3 },
  { id: 'podst_uk_fps', name: 'UK bank account (Faster Payments)', delivery_type: 'bank_account', countries: ['GB'], currency: 'gbp', speeds: ['standard', 'instant'],
    standard_fee_bps: 0, standard_fee_fixed: 0, instant_fee_bps: 50, instant_fee_fixed: 0, standard_arrival_seconds: DAY, instant_arrival_seconds: 600,
    min_amount: 100, max_amount: 5_000_000, institution_name: null, position: 4 },
  { id: 'podst_wallet', name: 'Digital wallet', delivery_type: 'digital_wallet', countries: ['US', 'CA', 'GB', 'DE', 'FR', 'AU'], currency: 'usd', speeds: ['standard', 'instant'],
    standard_fee_bps: 100, standard_fee_fixed: 0, instant_fee_bps: 200, instant_fee_fixed: 0, standard_arrival_seconds: DAY, instant_arrival_seconds: 300,
    min_amount: 100, max_amount: 1_000_000, institution_name: 'Sandbox Wallet', position: 5 },
  { id: 'podst_usdc', name: 'USDC (stablecoin)', delivery_type: 'crypto', countries: [], currency: 'usd', speeds: ['instant'],
    standard_fee_bps: 0, standard_fee_fixed: 0, instant_fee_bps: 50, instant_fee_fixed: 100, standard_arrival_seconds: 600, instant_arrival_seconds: 600,
    min_amount: 1_000, max_amount: 100_000_000, institution_name: null, position: 6 },
  { id: 'podst_bill_pay', name: 'Bill pay (check or ACH to a recipient)', delivery_type: 'bill_pay', countries: ['US'], currency: 'usd', speeds: ['standard'],
    standard_fee_bps: 0, standard_fee_fixed: 150, instant_fee_bps: 0, instant_fee_fixed: 0, standard_arrival_seconds: 5 * DAY, instant_arrival_seconds: null,
    min_amount: 100, max_amount: 2_500_000, institution_name: null, position: 7 },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('supported_payout_methods', (t) => {
    t.text('id').primary(); // podst_
    t.text('name').notNullable();
    t.text('delivery_type').notNullable();
    t.specificType('countries', 'text[]').notNullable(); // empty: every country
    t.text('currency').notNullable();
    t.specificType('speeds', 'text[]').notNullable();
    t.integer('standard_fee_bps').notNullable();
    money(t, 'standard_fee_fixed').notNullable();
    t.integer('instant_fee_bps').notNullable();
    money(t, 'instant_fee_fixed').notNullable();
    t.integer('standard_arrival_seconds').notNullable();
    t.integer('instant_arrival_seconds').nullable();
    money(t, 'min_amount').notNullable();
    money(t, 'max_amount').notNullable();
    t.text('institution_name').nullable();
    t.integer('position').notNullable();
    timestamps(t, knex);
  });
  await knex('supported_payout_methods').insert(RAILS);
  // Cached by every server (handlers/shared/reference-tables.ts): a change reaches them all (migrations/140).
  await knex.raw(`create trigger supported_payout_methods_invalidates_reference after insert or update or delete
    on supported_payout_methods for each statement execute function notify_cache_invalidation('reference')`);

  await knex.schema.createTable('payout_methods', (t) => {
    t.text('id').primary(); // potk_
    t.text('account_id').nullable().references('accounts.id');
    t.text('user_id').nullable().references('users.id');
    t.text('supported_payout_method_id').notNullable().references('supported_payout_methods.id');
    t.text('nickname').notNullable();
    t.boolean('is_default').notNullable().defaultTo(false);
    t.text('destination_currency').notNullable();
    t.text('destination_number').notNullable(); // what the rail delivers to: an account number, card, wallet or address
    t.text('routing_number').nullable();
    t.text('institution_name').nullable();
    t.text('status').notNullable().defaultTo('active'); // created | active | broken
    t.text('recipient_first_name').nullable();
    t.text('recipient_last_name').nullable();
    t.text('recipient_country').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['user_id', 'created_at', 'id']);
  });
  await knex.raw('alter table payout_methods add constraint payout_methods_one_owner check ((account_id is null) <> (user_id is null))');
  // A nickname names one destination of an owner per rail.
  await knex.raw(`create unique index payout_methods_nickname on payout_methods
    (coalesce(account_id, user_id), supported_payout_method_id, lower(nickname))`);
  // At most one default per owner.
  await knex.raw('create unique index payout_methods_default on payout_methods (coalesce(account_id, user_id)) where is_default');

  await knex.schema.createTable('payouts', (t) => {
    t.text('id').primary(); // wdrl_
    t.text('account_id').nullable().references('accounts.id');
    t.text('user_id').nullable().references('users.id');
    t.text('ledger_id').notNullable().references('ledger_accounts.id');
    t.text('payout_method_id').notNullable().references('payout_methods.id');
    t.text('status').notNullable();
    t.text('status_detail').nullable();
    t.text('speed').notNullable();
    t.text('currency').notNullable();
    money(t, 'amount').notNullable();
    money(t, 'fee_amount').notNullable();
    money(t, 'markup_fee').notNullable().defaultTo(0);
    money(t, 'net_amount').notNullable();
    t.text('destination_currency').notNullable();
    money(t, 'destination_amount').notNullable();
    t.text('exchange_rate').notNullable().defaultTo('1'); // an exact decimal
    t.text('payout_request_id').nullable();
    t.text('conversion_request_id').nullable().unique(); // cofr_
    t.text('failure_code').nullable();
    t.text('failure_message').nullable();
    timestamp(t, 'funds_returned_at').nullable();
    timestamp(t, 'estimated_arrival_at').nullable();
    timestamp(t, 'completed_at').nullable();
    t.text('trace_code').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['user_id', 'created_at', 'id']);
  });
  await knex.raw('alter table payouts add constraint payouts_one_owner check ((account_id is null) <> (user_id is null))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('payouts');
  await knex.schema.dropTableIfExists('payout_methods');
  await knex.schema.dropTableIfExists('supported_payout_methods');
}
