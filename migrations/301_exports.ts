// Exports (spec/areas/exports.yaml): a CSV of one resource of one account, written by the generate_export job
// into a file of the files table, deleted by the expire_exports job 30 days after it finished.
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('exports', (t) => {
    t.text('id').primary(); // exp_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('resource').notNullable(); // payments, memberships, ... (handlers/exports/exportable.ts)
    t.text('api_version').notNullable(); // the creator's pinned version: the CSV's columns and shapes
    t.text('status').notNullable(); // pending | processing | completed | expired
    t.text('file_id').nullable().references('files.id').onDelete('set null');
    t.bigInteger('row_count').nullable();
    timestamp(t, 'started_at').nullable();
    timestamp(t, 'completed_at').nullable();
    timestamp(t, 'expired_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table exports
    add constraint exports_status check (status in ('pending', 'processing', 'completed', 'expired'))`);
  // The retention sweep reads completed exports by finishing time.
  await knex.raw(`create index exports_completed on exports (completed_at) where status = 'completed'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('exports');
}
