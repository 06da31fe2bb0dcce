// The PostgreSQL file store (runtime/file-storage-postgres.ts): file bytes every host serving this database shares,
// with no other service. An object is a row naming it and its bytes in chunks of up to 1 MiB, so that a stream in or
// out holds one chunk at a time, never the whole object. An object being written has no key yet (invisible): it gets
// its key, replacing any object of that key, in the one transaction that completes it, so a refused or broken upload
// leaves nothing visible; one whose writer died stays keyless and is swept after a day.
import type { Knex } from 'knex';
import { timestamp } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('stored_objects', (t) => {
    t.bigIncrements('id').primary();
    t.text('key').nullable().unique(); // null while being written
    t.bigInteger('size').notNullable().defaultTo(0);
    t.integer('chunk_count').notNullable().defaultTo(0);
    // clock_now(): the suite's rule for every default (test/sandbox/clock.test.ts); the store's own pool runs no clock,
    // so it is the wall's time, which the sweep of abandoned uploads compares with.
    timestamp(t, 'created_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', clock_now())"));
  });
  // The sweep of abandoned writes reads only keyless rows.
  await knex.raw('create index stored_objects_being_written on stored_objects (created_at) where key is null');
  await knex.schema.createTable('stored_object_chunks', (t) => {
    t.bigInteger('object_id').notNullable().references('stored_objects.id').onDelete('cascade');
    t.integer('seq').notNullable(); // 0, 1, ... in order
    t.binary('bytes').notNullable();
    t.primary(['object_id', 'seq']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('stored_object_chunks');
  await knex.schema.dropTable('stored_objects');
}
