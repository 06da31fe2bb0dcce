// The sandbox's 3-D Secure page (handlers/sandbox) is reached through a single-use secret in next_action's URL: a
// payment or setup intent waiting on its buyer holds it until the step is finished.
import type { Knex } from 'knex';

const TABLES = ['payments', 'setup_intents'];

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.text('authentication_token').nullable().unique();
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('authentication_token');
    });
  }
}
