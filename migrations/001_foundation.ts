// Storage for the foundation areas: accounts, users, credentials, team members, webhooks, idempotency, outbox.
// Timestamps carry millisecond precision so keyset cursors round-trip exactly through JavaScript.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';


export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('business_categories', (t) => {
    t.text('slug').primary();
    t.text('kind').notNullable(); // business_type | industry_type
    t.text('name').notNullable();
    t.text('replaced_by').nullable(); // an old slug kept for pinned callers
  });

  await knex.schema.createTable('accounts', (t) => {
    t.text('id').primary();
    t.text('parent_id').nullable().references('accounts.id');
    t.text('title').notNullable();
    t.text('email').nullable();
    t.text('route').notNullable().unique();
    t.text('logo_url').nullable();
    t.text('country').nullable();
    t.text('status').notNullable().defaultTo('active'); // active | suspended
    t.text('payments_review').notNullable().defaultTo('not_started'); // not_started | in_review | approved
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.text('external_id').nullable(); // metadata.external_id, kept unique per parent for conflict detection
    t.boolean('send_customer_emails').notNullable().defaultTo(false);
    t.text('affiliate_code').nullable();
    t.text('blueprint_id').nullable();
    t.text('business_type').nullable().references('business_categories.slug');
    t.text('industry_type').nullable().references('business_categories.slug');
    t.text('three_d_secure_policy').notNullable().defaultTo('frictionless_if_required');
    t.text('undated_pending_reason').nullable();
    money(t, 'lifetime_volume_usd').notNullable().defaultTo(0); // minor units (cents)
    t.text('tax_remitted_by').nullable();
    t.text('tax_type').nullable();
    t.text('product_tax_code_id').nullable();
    t.jsonb('business_address').nullable();
    t.jsonb('tax_identifiers').notNullable().defaultTo('[]');
    timestamp(t, 'economic_intelligence_ends_at').nullable();
    t.text('economic_intelligence_offer_key').nullable();
    timestamp(t, 'economic_intelligence_trial_ends_at').nullable();
    t.text('client_id').notNullable().unique();
    t.text('owner_user_id').nullable();
    timestamps(t, knex);
    t.unique(['parent_id', 'external_id']);
    t.index(['created_at', 'id']);
    t.index(['parent_id', 'created_at', 'id']);
  });
  await knex.raw('create index accounts_title_trgm on accounts (lower(title))');

  await knex.schema.createTable('users', (t) => {
    t.text('id').primary();
    t.text('username').notNullable().unique();
    t.text('name').nullable();
    t.text('email').notNullable().unique();
    t.text('bio').nullable();
    t.text('profile_picture_url').nullable();
    t.text('city').nullable();
    t.text('country').nullable();
    timestamps(t, knex);
    t.index(['created_at', 'id']);
  });
  await knex.raw('alter table accounts add constraint accounts_owner_fk foreign key (owner_user_id) references users(id)');

  await knex.schema.createTable('user_tokens', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('users.id');
    t.text('secret_hash').notNullable().unique();
    t.text('name').nullable();
    timestamp(t, 'expires_at').nullable();
    timestamp(t, 'revoked_at').nullable();
    timestamps(t, knex);
  });

  await knex.schema.createTable('team_members', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id');
    t.text('user_id').notNullable().references('users.id');
    t.text('role').notNullable(); // a system role name, or custom
    t.specificType('permissions', 'text[]').notNullable().defaultTo('{}'); // for custom roles
    t.text('status').notNullable(); // invited | active
    t.text('invited_by_user_id').nullable().references('users.id');
    timestamp(t, 'invited_at').nullable();
    timestamp(t, 'accepted_at').nullable();
    timestamps(t, knex);
    t.unique(['account_id', 'user_id']);
    t.index(['user_id', 'status']);
    t.index(['account_id', 'created_at', 'id']);
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id');
    t.text('name').notNullable();
    t.text('secret_hash').notNullable().unique();
    t.text('secret_hint').notNullable(); // the first and last characters, for display
    t.text('role').nullable(); // inherited system role, or null when statements are explicit
    t.jsonb('statements').notNullable().defaultTo('[]');
    t.specificType('ip_allowlist', 'text[]').notNullable().defaultTo('{}');
    t.date('api_version_date').nullable();
    timestamp(t, 'expires_at').nullable();
    timestamp(t, 'revoked_at').nullable();
    timestamp(t, 'rotated_at').nullable();
    timestamp(t, 'last_used_at').nullable();
    t.text('created_by_user_id').nullable().references('users.id');
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });

  await knex.schema.createTable('webhooks', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id');
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('description').nullable();
    t.date('api_version_date').nullable();
    t.text('secret').notNullable(); // needed in the clear to sign deliveries
    t.boolean('include_connected_accounts').notNullable().defaultTo(false);
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });

  await knex.schema.createTable('account_preferences', (t) => {
    t.text('account_id').primary().references('accounts.id');
    t.jsonb('document').notNullable().defaultTo('{}');
    timestamps(t, knex);
  });

  await knex.schema.createTable('ledger_accounts', (t) => {
    t.text('id').primary(); // ldgr_
    t.text('account_id').nullable().references('accounts.id');
    t.text('user_id').nullable().references('users.id');
    t.text('kind').notNullable(); // business | personal | cards
    t.text('title').nullable();
    t.text('currency').notNullable().defaultTo('usd');
    timestamps(t, knex);
  });

  await knex.schema.createTable('payment_methods', (t) => {
    t.text('id').primary(); // payt_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('user_id').nullable().references('users.id');
    t.text('type').notNullable().defaultTo('card');
    t.text('card_brand').nullable();
    t.text('last4').nullable();
    t.integer('exp_month').nullable();
    t.integer('exp_year').nullable();
    timestamps(t, knex);
  });

  // Double-entry postings; an account's balance buckets are sums over its postings.
  await knex.schema.createTable('ledger_postings', (t) => {
    t.bigIncrements('id').primary();
    t.text('entry_id').notNullable();
    t.text('account_id').notNullable().references('accounts.id');
    t.text('bucket').notNullable(); // available | pending | in_transit
    t.text('currency').notNullable();
    money(t, 'amount').notNullable(); // minor units, signed
    timestamp(t, 'created_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
    t.index(['account_id', 'currency', 'bucket']);
  });

  await knex.schema.createTable('economic_intelligence_offers', (t) => {
    t.text('key').primary();
    t.integer('duration').notNullable();
    t.text('duration_unit').notNullable(); // hours | days
    t.boolean('auto_renew').notNullable();
    money(t, 'price_amount').notNullable();
    t.text('currency').notNullable();
    t.integer('position').notNullable();
  });

  await knex.schema.createTable('reward_milestones', (t) => {
    t.text('id').primary();
    t.text('title').notNullable();
    money(t, 'threshold_usd').notNullable(); // minor units
    money(t, 'reward_usd').notNullable();
  });
  await knex.schema.createTable('reward_payouts', (t) => {
    t.text('account_id').notNullable().references('accounts.id');
    t.text('milestone_id').notNullable().references('reward_milestones.id');
    t.text('status').notNullable(); // pending | paid
    timestamp(t, 'paid_at').nullable();
    t.primary(['account_id', 'milestone_id']);
  });

  await knex.schema.createTable('ads_payment_retries', (t) => {
    t.text('id').primary();
    t.text('account_id').notNullable().references('accounts.id');
    t.text('status').notNullable(); // queued | completed
    t.text('outcome').nullable();
    timestamp(t, 'completed_at').nullable();
    timestamps(t, knex);
  });

  await knex.schema.createTable('idempotency_keys', (t) => {
    t.text('credential_id').notNullable();
    t.text('key').notNullable();
    t.text('operation_id').notNullable();
    t.text('request_hash').notNullable();
    t.text('state').notNullable(); // running | done
    t.integer('status_code').nullable();
    t.jsonb('response').nullable();
    timestamp(t, 'expires_at').notNullable();
    timestamps(t, knex);
    t.primary(['credential_id', 'key']);
    t.index(['expires_at']);
  });

  await knex.schema.createTable('events', (t) => {
    t.text('id').primary(); // evt_
    t.text('type').notNullable();
    t.text('account_id').nullable();
    t.jsonb('data').notNullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });

  await seed(knex);
}

async function seed(knex: Knex): Promise<void> {
  // The business categories table; old slugs stay so pinned callers keep their names.
  await knex('business_categories').insert([
    { slug: 'education', kind: 'business_type', name: 'Education' },
    { slug: 'ecommerce', kind: 'business_type', name: 'E-commerce' },
    { slug: 'platform', kind: 'business_type', name: 'Platform' },
    { slug: 'software', kind: 'business_type', name: 'Software' },
    { slug: 'community', kind: 'business_type', name: 'Community' },
    { slug: 'agency', kind: 'business_type', name: 'Agency' },
    { slug: 'coaching_and_courses', kind: 'business_type', name: 'Coaching and courses', replaced_by: 'education' },
    { slug: 'physical_product', kind: 'business_type', name: 'Physical product', replaced_by: 'ecommerce' },
    { slug: 'marketplace', kind: 'business_type', name: 'Marketplace', replaced_by: 'platform' },
    { slug: 'trading', kind: 'industry_type', name: 'Trading' },
    { slug: 'fitness', kind: 'industry_type', name: 'Fitness' },
    { slug: 'gaming', kind: 'industry_type', name: 'Gaming' },
    { slug: 'real_estate', kind: 'industry_type', name: 'Real estate' },
    { slug: 'finance', kind: 'industry_type', name: 'Finance' },
    { slug: 'marketing', kind: 'industry_type', name: 'Marketing' },
    { slug: 'sports', kind: 'industry_type', name: 'Sports' },
    { slug: 'other', kind: 'industry_type', name: 'Other' },
  ]);
  await knex('economic_intelligence_offers').insert([
    { key: 'weekly', duration: 7, duration_unit: 'days', auto_renew: true, price_amount: 4900, currency: 'usd', position: 1 },
    { key: 'days_30', duration: 30, duration_unit: 'days', auto_renew: false, price_amount: 14900, currency: 'usd', position: 2 },
    { key: 'days_90', duration: 90, duration_unit: 'days', auto_renew: false, price_amount: 39900, currency: 'usd', position: 3 },
    { key: 'hours_48', duration: 48, duration_unit: 'hours', auto_renew: false, price_amount: 1900, currency: 'usd', position: 4 },
  ]);
  await knex('reward_milestones').insert([
    { id: 'rwd_10k', title: '$10K in sales', threshold_usd: 1_000_000, reward_usd: 10_000 },
    { id: 'rwd_100k', title: '$100K in sales', threshold_usd: 10_000_000, reward_usd: 50_000 },
    { id: 'rwd_1m', title: '$1M in sales', threshold_usd: 100_000_000, reward_usd: 250_000 },
  ]);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['events', 'idempotency_keys', 'ads_payment_retries', 'reward_payouts', 'reward_milestones',
    'economic_intelligence_offers', 'ledger_postings', 'payment_methods', 'ledger_accounts', 'account_preferences', 'webhooks', 'api_keys',
    'team_members', 'user_tokens']) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.raw('alter table accounts drop constraint if exists accounts_owner_fk');
  await knex.schema.dropTableIfExists('users');
  await knex.schema.dropTableIfExists('accounts');
  await knex.schema.dropTableIfExists('business_categories');
}
