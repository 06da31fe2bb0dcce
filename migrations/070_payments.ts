// Payments beyond 050: where a payment's 3-D Secure authentication stands, which collection needs to know
// (a step required but never completed means the processor refuses the charge).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.text('authentication').notNullable().defaultTo('not_required'); // not_required | required | authenticated
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex(['user_id']);
    t.dropColumn('authentication');
  });
}
