// Experiences powered by apps and shown with a logo (the official client's app_id, logo and image): the app that
// powers an experience (null: the account itself) and its logo, a ready image file the account uploaded.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('experiences', (t) => {
    t.text('app_id').nullable().references('apps.id');
    t.text('logo_file_id').nullable().references('files.id');
    t.index(['app_id', 'created_at', 'id']); // GET /experiences?app_id=: a page of one app's experiences
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('experiences', (t) => { t.dropColumns('app_id', 'logo_file_id'); });
}
