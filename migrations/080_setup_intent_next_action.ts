// Setup intents waiting on 3D Secure say where to send the buyer (next_action); 050 has no column for it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('setup_intents', (t) => {
    t.jsonb('next_action').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('setup_intents', (t) => {
    t.dropColumn('next_action');
  });
}
