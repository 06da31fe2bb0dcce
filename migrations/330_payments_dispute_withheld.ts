// What the clearing sweep withheld from a payment's funds for its dispute (handlers/ledger/clearing.ts): a dispute
// won or prevented after clearing gives that part back to available, and the rest (what clearing could not
// withhold, the payment's fees) to pending, where the dispute took it from.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => { t.bigInteger('dispute_withheld').notNullable().defaultTo(0); });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => t.dropColumn('dispute_withheld'));
}
