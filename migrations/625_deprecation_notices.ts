// Deprecation from evidence (npm run cli -- deprecations, bin/cli-deprecations.ts): the platform tells each account
// whose keys still called a deprecated operation in the window, once per account and operation per window.
// - deprecation_notices records each notice per account (sent even to an account without active team members, so
//   that the evidence the generator reads, spec/deprecation-evidence.json, can say the notice was given);
// - deprecated_usage is a topic whose notifications the CLI writes directly (no event: a notice is the platform's
//   own message, not a fact of the account that webhooks would carry), to the account's active team members.
import type { Knex } from 'knex';

const TOPIC = {
  id: 'ntop_deprecatedusage', identifier: 'deprecated_usage', name: 'Deprecated API usage',
  description: 'An API key of an account you are on the team of still calls a deprecated operation; the notice names its successor.',
  event_type: null,
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table if not exists deprecation_notices (
    id text primary key,
    account_id text not null references accounts(id) on delete cascade,
    operation text not null,
    successor text,
    calls integer not null,
    recipients integer not null,
    sent_at timestamptz not null default date_trunc('milliseconds', clock_now())
  )`);
  await knex.raw('create index if not exists deprecation_notices_account_operation on deprecation_notices (account_id, operation, sent_at)');
  const [{ position }] = (await knex.raw('select coalesce(max(position), -1) + 1 as position from notification_topics')).rows;
  await knex('notification_topics').insert({ ...TOPIC, position });
}

export async function down(knex: Knex): Promise<void> {
  await knex('notification_preferences').where({ topic_id: TOPIC.id }).delete();
  await knex('notifications').where({ type: TOPIC.identifier }).delete();
  await knex('notification_topics').where({ id: TOPIC.id }).delete();
  await knex.raw('drop table if exists deprecation_notices');
}
