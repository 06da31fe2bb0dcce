// Worker liveness (runtime/worker-liveness.ts): every running worker pool beats here, and a pool whose lease ran out
// is dead, so the jobs it held are released at once instead of after graphile-worker's 4-hour lock expiry.
import type { Knex } from 'knex';
import { timestamp } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('worker_heartbeats', (t) => {
    t.text('worker_id').primary(); // graphile-worker's pool id: what its jobs' locked_by says
    t.text('host').notNullable();
    t.integer('pid').notNullable();
    timestamp(t, 'started_at').notNullable().defaultTo(knex.fn.now());
    timestamp(t, 'beat_at').notNullable().defaultTo(knex.fn.now());
    // Each worker says how long its beat holds (its own dead-after setting), so workers configured differently judge
    // each other by the beating worker's own promise.
    timestamp(t, 'expires_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('worker_heartbeats');
}
