// Shipments (spec/areas/shipments.yaml): a carrier tracking number attached to a payment, one per payment. The
// tracking URL is derived from carrier and number when read (handlers/shipments/carriers.ts), never stored.
import type { Knex } from 'knex';
import { timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('shipments', (t) => {
    t.text('id').primary(); // ship_
    t.text('account_id').notNullable().references('accounts.id');
    // unique: a payment has at most one shipment, whatever concurrent creates saw (409 naming payment_id)
    t.text('payment_id').notNullable().references('payments.id').unique();
    t.text('user_id').nullable(); // the payment's buyer, for the list's user_id filter
    t.text('order_id').nullable();
    t.text('tracking_number').notNullable();
    t.text('carrier').notNullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['account_id', 'user_id', 'created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('shipments');
}
