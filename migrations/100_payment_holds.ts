// What a payment holds and asks for beyond 070: the discount of its promo code (promo_code_id is in 050), whether it
// took one unit of its variant's stock (given back, with the promo redemption, when it fails or is canceled), and
// whether its confirmation token's card is to be saved for the buyer when it succeeds.
import type { Knex } from 'knex';
import { money } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    money(t, 'discount_amount').notNullable().defaultTo(0);
    t.boolean('stock_held').notNullable().defaultTo(false);
    t.boolean('save_payment_method').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.dropColumn('save_payment_method');
    t.dropColumn('stock_held');
    t.dropColumn('discount_amount');
  });
}
