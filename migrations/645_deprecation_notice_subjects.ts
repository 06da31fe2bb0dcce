// Deprecation notices (migration 625) name what they are about: an operation, or now a deprecated field
// (generator/deprecated-fields.ts), which an account uses through its API keys' calls or its webhook subscriptions'
// deliveries. `operation` becomes `subject` (an operation id such as listPlans, or a field such as
// Webhook.api_version) with its `kind`; `deliveries` counts the deliveries that carried a field (0 for operations).
// The topic's description names both.
import type { Knex } from 'knex';

const TOPIC_ID = 'ntop_deprecatedusage';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table deprecation_notices rename column operation to subject');
  await knex.raw(`alter table deprecation_notices add column kind text not null default 'operation' check (kind in ('operation', 'field'))`);
  await knex.raw('alter table deprecation_notices add column deliveries integer not null default 0');
  await knex.raw('alter index deprecation_notices_account_operation rename to deprecation_notices_account_subject');
  await knex('notification_topics').where({ id: TOPIC_ID }).update({
    description: 'An API key or webhook subscription of an account you are on the team of still uses a deprecated operation or field; the notice names its successor.',
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('notification_topics').where({ id: TOPIC_ID }).update({
    description: 'An API key of an account you are on the team of still calls a deprecated operation; the notice names its successor.',
  });
  await knex('deprecation_notices').where({ kind: 'field' }).delete();
  await knex.raw('alter index deprecation_notices_account_subject rename to deprecation_notices_account_operation');
  await knex.raw('alter table deprecation_notices drop column deliveries');
  await knex.raw('alter table deprecation_notices drop column kind');
  await knex.raw('alter table deprecation_notices rename column subject to operation');
}
