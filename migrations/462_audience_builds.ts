// Audiences are built on the sandbox ad network in the background (handlers/audiences/build.ts): created pending,
// then the build_audience job matches a customer list's rows (the account's members, or an uploaded CSV file read
// through column_mapping) in batches, each its own transaction (processing, with processed_rows), and makes the
// audience ready, partial or failed. Audiences made before this were sized at creation: they are ready.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audiences', (t) => {
    t.text('status').notNullable().defaultTo('pending'); // pending | processing | ready | partial | failed
    t.text('error_message').nullable();
    t.text('file_id').nullable().references('files.id'); // a customer list uploaded as CSV
    t.jsonb('column_mapping').nullable(); // { email, phone, first_name, last_name, country }: the file's header names
    t.integer('total_rows').notNullable().defaultTo(0);
    t.integer('processed_rows').notNullable().defaultTo(0); // rows read so far (a batch's commit moves it)
    t.integer('usable_rows').notNullable().defaultTo(0); // rows read with an email or phone the network can match
    t.integer('matched_rows').notNullable().defaultTo(0);
    t.text('platform_audience_id').nullable(); // the network's id, once built
  });
  await knex('audiences').update({ status: 'ready' });
  await knex.raw(`alter table audiences
    add constraint audiences_status check (status in ('pending', 'processing', 'ready', 'partial', 'failed')),
    add constraint audiences_file check (file_id is null or source_type = 'customer_list'),
    add constraint audiences_rows check (0 <= matched_rows and matched_rows <= usable_rows and usable_rows <= processed_rows
      and processed_rows <= total_rows)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table audiences drop constraint audiences_status, drop constraint audiences_file, drop constraint audiences_rows');
  await knex.schema.alterTable('audiences', (t) => {
    for (const c of ['status', 'error_message', 'file_id', 'column_mapping', 'total_rows', 'processed_rows', 'usable_rows', 'matched_rows', 'platform_audience_id']) t.dropColumn(c);
  });
}
