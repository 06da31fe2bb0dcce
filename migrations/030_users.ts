// Users and team members: a user's notification feed (team invitations are its first kind) and prefix-search
// indexes for GET /users.
import type { Knex } from 'knex';
import { timestamp } from './support/columns.js';


export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notifications', (t) => {
    t.text('id').primary(); // ntf_
    t.text('user_id').notNullable().references('users.id');
    t.text('type').notNullable(); // team_invitation, ...
    t.jsonb('data').notNullable().defaultTo('{}');
    timestamp(t, 'read_at').nullable();
    timestamp(t, 'created_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
    t.index(['user_id', 'created_at', 'id']);
  });

  // text_pattern_ops lets `lower(x) like 'prefix%'` use the index whatever the database collation.
  await knex.raw('create index users_username_prefix on users (lower(username) text_pattern_ops)');
  await knex.raw('create index users_name_prefix on users (lower(name) text_pattern_ops)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists users_name_prefix');
  await knex.raw('drop index if exists users_username_prefix');
  await knex.schema.dropTableIfExists('notifications');
}
