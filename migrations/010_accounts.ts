// Accounts: hosted websites created from a blueprint at account creation, and the per-account switch that
// allows the mandate_challenge 3-D Secure policy.
import type { Knex } from 'knex';
import { timestamp } from './support/columns.js';


export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_sites', (t) => {
    t.text('id').primary(); // site_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('blueprint_id').notNullable(); // app_
    t.text('status').notNullable().defaultTo('queued'); // queued | deployed
    timestamp(t, 'deployed_at').nullable();
    timestamp(t, 'created_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
    timestamp(t, 'updated_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
    t.index(['account_id']);
  });

  await knex.schema.alterTable('accounts', (t) => {
    // Explicit mandatory 3-D Secure challenges are refused until the platform enables them (an operator switch).
    t.boolean('three_d_secure_challenge_enabled').notNullable().defaultTo(false);
    // GET /accounts?order=volume pages on (lifetime_volume_usd, id).
    t.index(['lifetime_volume_usd', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.dropIndex(['lifetime_volume_usd', 'id']);
    t.dropColumn('three_d_secure_challenge_enabled');
  });
  await knex.schema.dropTableIfExists('account_sites');
}
