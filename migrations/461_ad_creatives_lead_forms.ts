// Ads' creatives and lead forms. creatives name files of the files area ({ id, crop, format }; media type and link
// are read from the file). Lead (instant) forms live on the sandbox network, on a facebook page: the forms a page
// already has when it connects, and those the network makes when an ad authors one (handlers/ads/lead-forms.ts);
// an ad reuses one by its platform id (lead_form_id).
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ads', (t) => {
    t.jsonb('creatives').notNullable().defaultTo('[]'); // [{ id: file_, crop: { x, y, width, height } | null, format | null }]
    t.jsonb('lead_form').nullable(); // the form the ad authored, as sent (with defaults)
    t.text('lead_form_id').nullable(); // the network's id of the form the ad collects leads with
  });
  await knex.schema.createTable('external_account_lead_forms', (t) => {
    t.text('id').primary(); // xform_ (ours; the API names a form by platform_form_id)
    t.text('account_id').notNullable().references('accounts.id');
    t.text('external_account_id').notNullable().references('external_accounts.id');
    t.text('platform_form_id').notNullable(); // "<page external_id>_f<n>"
    t.text('name').nullable();
    t.text('locale').nullable();
    t.text('privacy_policy_url').nullable();
    t.specificType('question_labels', 'text[]').notNullable().defaultTo('{}');
    t.text('status').notNullable(); // active | archived
    timestamps(t, knex);
    t.unique(['external_account_id', 'platform_form_id']); // brought in once, however often the connect job runs
    // GET /external_accounts/{id}/lead_forms: one page's active forms, newest first.
    t.index(['external_account_id', 'status', 'created_at', 'id']);
  });
  await knex.raw(`alter table external_account_lead_forms
    add constraint external_account_lead_forms_status check (status in ('active', 'archived'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('external_account_lead_forms');
  await knex.schema.alterTable('ads', (t) => {
    t.dropColumn('creatives');
    t.dropColumn('lead_form');
    t.dropColumn('lead_form_id');
  });
}
