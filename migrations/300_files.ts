// Files (spec/areas/files.yaml): a row per upload, whose bytes live in the file storage (runtime/file-storage.ts),
// never in the database. A file belongs to the caller that created it: an account (API keys, and exports the
// platform writes for an account) or a user (user tokens). Multipart uploads keep one row per received part until
// POST /files/{id}/complete assembles them.
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('files', (t) => {
    t.text('id').primary(); // file_
    t.text('owner_account_id').nullable().references('accounts.id');
    t.text('owner_user_id').nullable().references('users.id');
    t.text('filename').notNullable();
    t.text('content_type').notNullable();
    t.text('visibility').notNullable(); // public | private
    t.text('status').notNullable(); // pending | ready
    t.integer('part_count').notNullable(); // 1: a single PUT; more: multipart, finished by /complete
    t.bigInteger('declared_size').nullable(); // the size the creator announced, which the bytes must match
    t.bigInteger('size').nullable(); // bytes stored, once ready
    t.text('storage_key').nullable(); // where the bytes are, once ready
    timestamp(t, 'upload_expires_at').notNullable();
    timestamp(t, 'ready_at').nullable();
    timestamps(t, knex);
    t.index(['owner_account_id', 'created_at', 'id']);
    t.index(['owner_user_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table files
    add constraint files_owner check ((owner_account_id is null) <> (owner_user_id is null)),
    add constraint files_status check (status in ('pending', 'ready')),
    add constraint files_visibility check (visibility in ('public', 'private')),
    add constraint files_parts check (part_count between 1 and 100),
    add constraint files_ready check ((status = 'ready') = (ready_at is not null and size is not null and storage_key is not null))`);
  await knex.schema.createTable('file_parts', (t) => {
    t.text('file_id').notNullable().references('files.id').onDelete('cascade');
    t.integer('part_number').notNullable();
    t.bigInteger('size').notNullable();
    t.text('storage_key').notNullable();
    timestamps(t, knex);
    t.primary(['file_id', 'part_number']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('file_parts');
  await knex.schema.dropTableIfExists('files');
}
