// Reviews (spec/areas/reviews.yaml): left by a product's members; published or removed by the sandbox moderator
// job (handlers/reviews/moderate.ts).
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('reviews', (t) => {
    t.text('id').primary(); // rev_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('product_id').notNullable().references('products.id');
    t.text('user_id').notNullable().references('users.id');
    t.smallint('stars').notNullable();
    t.text('title').nullable();
    t.text('description').nullable();
    t.text('status').notNullable().defaultTo('pending');
    t.boolean('paid_for_product').notNullable();
    timestamp(t, 'joined_at').nullable();
    timestamp(t, 'published_at').nullable();
    timestamps(t, knex);
    t.unique(['product_id', 'user_id']); // one review per member and product
    t.index(['account_id', 'created_at', 'id']);
    t.index(['account_id', 'product_id', 'created_at', 'id']); // a product's reviews, the list the official client asks for
  });
  await knex.raw("ALTER TABLE reviews ADD CONSTRAINT reviews_status_check CHECK (status IN ('pending', 'published', 'removed'))");
  await knex.raw('ALTER TABLE reviews ADD CONSTRAINT reviews_stars_check CHECK (stars BETWEEN 1 AND 5)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('reviews');
}
