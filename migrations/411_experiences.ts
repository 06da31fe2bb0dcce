// Experiences (spec/areas/experiences.yaml): what an account's products give access to. An experience belongs to
// one account and is attached to any of its products (experience_products); a product's customers reach it.
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('experiences', (t) => {
    t.text('id').primary(); // exp_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('name').notNullable();
    t.boolean('is_public').notNullable().defaultTo(false);
    t.text('order').nullable();
    timestamp(t, 'deleted_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });
  await knex.schema.createTable('experience_products', (t) => {
    t.text('experience_id').notNullable().references('experiences.id');
    t.text('product_id').notNullable().references('products.id');
    timestamp(t, 'created_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
    t.primary(['experience_id', 'product_id']);
    t.index(['product_id', 'experience_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('experience_products');
  await knex.schema.dropTableIfExists('experiences');
}
