// The upgrade workbench's way back (POST /api_keys/{id}/move_pin, /rollback_pin): a key remembers the pin its last
// move left and until when it can return there (72 hours in the account's time), and every move is kept as a row.
import type { Knex } from 'knex';
import { clockTimestamps, timestamp } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.date('previous_api_version_date').nullable(); // the pin the last move left
    timestamp(t, 'pin_moved_at').nullable();
    timestamp(t, 'pin_rollback_until').nullable(); // null: no way back (never moved, rolled back, window closed by a new move)
    t.specificType('pin_subscriptions_following', 'text[]').notNullable().defaultTo('{}');
  });
  await knex.schema.createTable('api_key_pin_moves', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id');
    t.text('api_key_id').notNullable().references('api_keys.id').onDelete('cascade');
    t.date('from_version_date').nullable(); // null: the key had no pin
    t.date('to_version_date').nullable();
    timestamp(t, 'moved_at').notNullable();
    timestamp(t, 'rollback_until').notNullable();
    timestamp(t, 'rolled_back_at').nullable();
    t.specificType('subscriptions_following', 'text[]').notNullable().defaultTo('{}');
    clockTimestamps(t, knex);
    t.index(['api_key_id', 'moved_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_key_pin_moves');
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('previous_api_version_date');
    t.dropColumn('pin_moved_at');
    t.dropColumn('pin_rollback_until');
    t.dropColumn('pin_subscriptions_following');
  });
}
