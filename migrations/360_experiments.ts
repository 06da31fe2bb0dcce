// Experiments (spec/areas/experiments.yaml): an account's A/B tests. Assignment is computed from the experiment id
// and the subject (handlers/experiments/assign.ts), so nothing per subject is stored.
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('experiments', (t) => {
    t.text('id').primary(); // expt_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('name').notNullable();
    t.text('description').nullable();
    t.text('status').notNullable().defaultTo('running');
    t.jsonb('variants').notNullable(); // [{ key, weight }] in created order: the order assignment walks
    t.text('findings').nullable();
    timestamp(t, 'ended_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });
  await knex.raw("ALTER TABLE experiments ADD CONSTRAINT experiments_status_check CHECK (status IN ('running', 'ended'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('experiments');
}
