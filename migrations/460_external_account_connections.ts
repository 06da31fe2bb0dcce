// OAuth-style connections of external accounts (POST /external_accounts/connect): a single-use state token behind
// the sandbox network's authorize page (handlers/external_accounts/oauth-pages.ts). The consent step turns a pending
// connection into external accounts once, in the transaction that marks it completed; an expired one creates nothing.
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('external_account_connections', (t) => {
    t.text('id').primary(); // xconn_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('platform').notNullable(); // meta_business | tiktok: the provider, not the external account's platform
    t.specificType('scopes', 'text[]').notNullable().defaultTo('{}');
    t.text('redirect_url').nullable();
    t.text('state').notNullable().unique(); // the secret in authorize_url: the only credential of the consent page
    t.text('status').notNullable(); // pending | completed | denied | expired | failed (the handle was already connected)
    t.specificType('external_account_ids', 'text[]').notNullable().defaultTo('{}');
    t.text('error').nullable();
    timestamp(t, 'expires_at').notNullable();
    timestamp(t, 'completed_at').nullable();
    timestamps(t, knex);
  });
  await knex.raw(`alter table external_account_connections
    add constraint external_account_connections_platform check (platform in ('meta_business', 'tiktok')),
    add constraint external_account_connections_status check (status in ('pending', 'completed', 'denied', 'expired', 'failed'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('external_account_connections');
}
