// Reviews' attachments (the official client's Review.attachments): files of the files area the reviewer uploaded,
// in the order they were sent.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('review_attachments', (t) => {
    t.text('review_id').notNullable().references('reviews.id');
    t.integer('position').notNullable();
    t.text('file_id').notNullable().references('files.id');
    t.primary(['review_id', 'position']);
    t.unique(['review_id', 'file_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('review_attachments');
}
