// Apps (spec/areas/apps.yaml): an account's apps, the builds uploaded for them (moved through their review states by
// the simulated build system, handlers/apps/build-system.ts), the hostnames serving hosted apps, the keys that belong
// to an app, and the hosted websites accounts build from an app as blueprint.
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('apps', (t) => {
    t.text('id').primary(); // app_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('name').notNullable();
    t.text('description').nullable();
    t.text('app_type').notNullable();
    t.text('deployment').notNullable(); // hosted | api_integration
    t.text('route').nullable(); // hosted apps: the subdomain serving it (app_domains holds its hostname)
    t.text('base_url').nullable();
    t.text('status').notNullable().defaultTo('hidden');
    t.specificType('redirect_uris', 'text[]').notNullable().defaultTo('{}');
    t.boolean('verified').notNullable().defaultTo(false);
    timestamp(t, 'verified_at').nullable();
    t.text('production_web_build_id').nullable(); // app_builds.id; no FK: the two tables reference each other
    t.integer('template_usage').notNullable().defaultTo(0); // accounts created with this app as blueprint
    t.text('created_by_user_id').nullable().references('users.id');
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['account_id', 'template_usage', 'id']);
  });
  await knex.raw(`alter table apps
    add constraint apps_app_type check (app_type in ('b2b_app', 'b2c_app', 'company_app', 'component')),
    add constraint apps_deployment check (deployment in ('hosted', 'api_integration')),
    add constraint apps_status check (status in ('live', 'unlisted', 'hidden')),
    add constraint apps_route_hosted check (route is null or deployment = 'hosted'),
    add constraint apps_template_usage check (template_usage >= 0)`);

  await knex.schema.createTable('app_builds', (t) => {
    t.text('id').primary(); // apbu_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('app_id').notNullable().references('apps.id');
    t.text('platform').notNullable(); // ios | android | web
    t.text('status').notNullable().defaultTo('draft'); // draft -> pending -> approved | rejected
    t.text('checksum').notNullable(); // the SHA-256 (hex) the uploader says the attachment has
    t.text('file_id').notNullable().references('files.id');
    t.text('source_file_id').nullable().references('files.id');
    t.specificType('supported_app_view_types', 'text[]').notNullable().defaultTo('{}');
    t.text('ai_prompt_id').nullable(); // accepted before 2026-09-02 (entry 9)
    t.text('review_message').nullable();
    t.boolean('is_production').notNullable().defaultTo(false);
    timestamp(t, 'reviewed_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['app_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table app_builds
    add constraint app_builds_platform check (platform in ('ios', 'android', 'web')),
    add constraint app_builds_status check (status in ('draft', 'pending', 'approved', 'rejected'))`);

  await knex.schema.createTable('app_domains', (t) => {
    t.text('id').primary(); // dom_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('app_id').notNullable().references('apps.id');
    t.text('hostname').notNullable().unique(); // a hostname once used stays its app's: old addresses keep pointing at it
    t.text('status').notNullable(); // active (serves the app) | previous (redirects to the active one)
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['app_id', 'created_at', 'id']);
  });
  await knex.raw("alter table app_domains add constraint app_domains_status check (status in ('active', 'previous'))");
  await knex.raw("create unique index app_domains_one_active on app_domains (app_id) where status = 'active'");

  await knex.schema.alterTable('api_keys', (t) => {
    t.text('app_id').nullable().references('apps.id'); // a key of an app acts for the app's account (account_id)
  });

  await knex.schema.alterTable('account_sites', (t) => {
    t.text('app_build_id').nullable().references('app_builds.id'); // the blueprint's web build deployed
    t.text('url').nullable();
    t.text('failure_reason').nullable();
  });
  await knex.raw("alter table account_sites add constraint account_sites_status check (status in ('queued', 'deployed', 'failed'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table account_sites drop constraint account_sites_status');
  await knex.schema.alterTable('account_sites', (t) => {
    t.dropColumn('app_build_id');
    t.dropColumn('url');
    t.dropColumn('failure_reason');
  });
  await knex.schema.alterTable('api_keys', (t) => { t.dropColumn('app_id'); });
  await knex.schema.dropTableIfExists('app_domains');
  await knex.schema.dropTableIfExists('app_builds');
  await knex.schema.dropTableIfExists('apps');
}
