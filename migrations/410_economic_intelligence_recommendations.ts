// Economic Intelligence recommendations (spec/areas/economic_intelligence.yaml): written for an account by the
// generate_ei_recommendations job (handlers/economic_intelligence/generate.ts) from the account's own data, then
// moved by their caller through ready -> running -> executed | incomplete.
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('economic_intelligence_recommendations', (t) => {
    t.text('id').primary(); // eirec_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('kind').notNullable(); // the generator rule that wrote it
    t.text('title').notNullable();
    t.text('summary').notNullable();
    t.text('status').notNullable().defaultTo('ready');
    t.jsonb('expected_tool_calls').notNullable(); // [{ tool_name, description }] in the order to call them
    timestamp(t, 'run_started_at').nullable();
    timestamp(t, 'run_ended_at').nullable();
    t.text('run_by_user_id').nullable().references('users.id');
    t.text('result_url').nullable();
    timestamp(t, 'acknowledged_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });
  await knex.raw(`ALTER TABLE economic_intelligence_recommendations ADD CONSTRAINT eirec_status_check
    CHECK (status IN ('ready', 'running', 'executed', 'incomplete', 'superseded'))`);
  // One open recommendation of a kind per account: the job's inserts are idempotent against it (a rerun after a
  // crash, or two runs at once, cannot write a second).
  await knex.raw(`CREATE UNIQUE INDEX eirec_open_kind ON economic_intelligence_recommendations (account_id, kind)
    WHERE status IN ('ready', 'running')`);
  // The hourly sweep finds the accounts where the feature is on without reading every account.
  await knex.raw('CREATE INDEX accounts_ei_on ON accounts (economic_intelligence_ends_at) WHERE economic_intelligence_ends_at IS NOT NULL');
  await knex.raw('CREATE INDEX accounts_ei_trial ON accounts (economic_intelligence_trial_ends_at) WHERE economic_intelligence_trial_ends_at IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS accounts_ei_on');
  await knex.raw('DROP INDEX IF EXISTS accounts_ei_trial');
  await knex.schema.dropTableIfExists('economic_intelligence_recommendations');
}
