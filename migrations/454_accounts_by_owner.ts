// The accounts a user owns, newest first (GET /users/{id}/recommend_actions reads the latest ten): without this
// index the read scans every account.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index accounts_owner_created on accounts (owner_user_id, created_at desc, id desc) where owner_user_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index accounts_owner_created');
}
