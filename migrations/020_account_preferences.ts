// Economic Intelligence auto-renewal: an auto-renewing offer (weekly) renews at each ends_at until the account
// stops it; stopping keeps the feature on until ends_at, so "renews" is state of its own beside the offer key.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.boolean('economic_intelligence_auto_renew').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.dropColumn('economic_intelligence_auto_renew');
  });
}
