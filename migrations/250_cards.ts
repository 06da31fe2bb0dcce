// Cards (spec/areas/cards.yaml): an account's cards balance, its cardholders and cards, card top-ups, and the
// transactions of the simulated card network. The money itself moves only in ledger postings; these rows say why.
//
// The cards balance is a ledger of kind 'cards' (one per account, made by the first card or top-up): its
// `available` bucket is what cards may spend, its `held` bucket what authorisations reserve. Both are floored at
// zero by the balance trigger (migrations/200_ledgers.ts), so no interleaving of authorisations can overspend it.
// Settled spending leaves for the platform's `card_clearing` bucket (owed to the card network), a contra bucket
// like payout_clearing: unfloored.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create unique index ledger_accounts_cards on ledger_accounts (account_id) where kind = 'cards'`);

  await knex.schema.createTable('cardholders', (t) => {
    t.text('id').primary(); // ichd_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('user_id').notNullable().references('users.id');
    t.text('name').notNullable();
    timestamps(t, knex);
    t.unique(['account_id', 'user_id']);
    t.index(['account_id', 'created_at', 'id']);
  });

  await knex.schema.createTable('cards', (t) => {
    t.text('id').primary(); // icrd_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('cardholder_id').notNullable().references('cardholders.id');
    t.text('user_id').notNullable().references('users.id');
    t.text('name').nullable();
    t.text('status').notNullable(); // active | frozen | canceled
    t.text('last4').notNullable();
    t.text('expiration_month').notNullable();
    t.text('expiration_year').notNullable();
    timestamp(t, 'canceled_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['cardholder_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table cards
    add constraint cards_status check (status in ('active', 'frozen', 'canceled')),
    add constraint cards_canceled_shape check ((status = 'canceled') = (canceled_at is not null))`);

  await knex.schema.createTable('card_top_ups', (t) => {
    t.text('id').primary(); // ctop_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('source').notNullable(); // balance (POST /cards/top_ups) | auto (cards_auto_top_up, at clearing)
    t.text('payment_id').nullable(); // the cleared payment an automatic top-up came from
    t.text('currency').notNullable();
    money(t, 'amount').notNullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table card_top_ups
    add constraint card_top_ups_amount check (amount > 0),
    add constraint card_top_ups_source check (source in ('balance', 'auto'))`);

  await knex.schema.createTable('card_transactions', (t) => {
    t.text('id').primary(); // citx_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('card_id').notNullable().references('cards.id');
    t.text('cardholder_id').notNullable().references('cardholders.id');
    t.text('status').notNullable(); // pending | settled | reversed | declined
    t.text('currency').notNullable();
    money(t, 'amount').notNullable();
    t.text('merchant_name').notNullable();
    t.text('merchant_category').nullable();
    t.text('decline_reason').nullable();
    timestamp(t, 'settled_at').nullable();
    timestamp(t, 'reversed_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['card_id', 'created_at', 'id']);
    t.index(['cardholder_id', 'created_at', 'id']);
    // A page of one status reads its own rows, not the account's whole history.
    t.index(['account_id', 'status', 'created_at', 'id']);
  });
  await knex.raw(`alter table card_transactions
    add constraint card_transactions_status check (status in ('pending', 'settled', 'reversed', 'declined')),
    add constraint card_transactions_amount check (amount > 0),
    add constraint card_transactions_declined_shape check ((status = 'declined') = (decline_reason is not null))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('card_transactions');
  await knex.schema.dropTableIfExists('card_top_ups');
  await knex.schema.dropTableIfExists('cards');
  await knex.schema.dropTableIfExists('cardholders');
  await knex.raw('drop index if exists ledger_accounts_cards');
}
