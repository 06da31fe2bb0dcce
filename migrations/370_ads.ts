// Ads (spec/areas/ads.yaml): campaigns, their ad groups and ads, the simulated ad network's delivery and its billing.
// Delivery is written once per ad and UTC hour (ad_delivery_hours, idempotent by its key) and added in the same
// transaction to the day row (ad_delivery_days), so a stats window reads whole days from day rows and only its
// ragged edges from hour rows: never more than 2 x 23 hour rows per ad, however long the history.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ad_campaigns', (t) => {
    t.text('id').primary(); // adcamp_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('title').notNullable();
    t.text('objective').notNullable();
    t.text('platform').notNullable().defaultTo('meta');
    t.text('status').notNullable().defaultTo('draft'); // draft | active | paused | payment_failed
    money(t, 'budget_amount').notNullable();
    t.text('budget_type').notNullable();
    t.text('budget_optimization').notNullable().defaultTo('ad_campaign');
    t.text('bid_type').notNullable().defaultTo('minimum_cost');
    t.text('currency').notNullable().defaultTo('usd');
    t.jsonb('special_ad_categories').notNullable().defaultTo('[]');
    timestamp(t, 'starts_at').nullable();
    timestamp(t, 'ends_at').nullable();
    t.jsonb('issues').notNullable().defaultTo('[]'); // [{ id, message, resource_id, resource_type }]
    timestamp(t, 'launched_at').nullable();
    timestamp(t, 'delivered_through').nullable(); // the end of the last hour delivered
    money(t, 'spent_total').notNullable().defaultTo(0); // what a lifetime budget has left is budget - spent_total
    timestamp(t, 'deleted_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });
  // The delivery sweep finds the campaigns that deliver without reading the others.
  await knex.raw("create index ad_campaigns_delivering on ad_campaigns (id) where status = 'active' and deleted_at is null");

  await knex.schema.createTable('ad_groups', (t) => {
    t.text('id').primary(); // adgrp_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('ad_campaign_id').notNullable().references('ad_campaigns.id');
    t.text('title').nullable();
    t.text('status').notNullable().defaultTo('active'); // active | paused
    money(t, 'budget_amount').nullable();
    t.text('budget_type').nullable();
    t.text('optimization_goal').nullable();
    t.jsonb('audiences').notNullable().defaultTo('{"include":[],"exclude":[]}');
    money(t, 'spent_total').notNullable().defaultTo(0);
    timestamp(t, 'deleted_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['ad_campaign_id']);
  });

  await knex.schema.createTable('ads', (t) => {
    t.text('id').primary(); // ad_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('ad_campaign_id').notNullable().references('ad_campaigns.id');
    t.text('ad_group_id').notNullable().references('ad_groups.id');
    t.text('title').nullable();
    t.text('status').notNullable().defaultTo('active'); // active | paused
    t.jsonb('primary_texts').notNullable().defaultTo('[]'); // [{ language?, text }]
    t.jsonb('headlines').notNullable().defaultTo('[]');
    t.jsonb('descriptions').notNullable().defaultTo('[]');
    t.jsonb('translations').nullable(); // { source_language, automatic_languages }
    t.text('call_to_action').nullable();
    t.text('url').nullable();
    t.text('post_id').notNullable(); // the post the network serves
    t.text('existing_post_id').nullable(); // the post the caller chose
    t.text('post_source').nullable();
    t.text('post_thumbnail_url').nullable();
    t.jsonb('external_accounts').notNullable().defaultTo('[]'); // [{ id }]
    timestamp(t, 'deleted_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['ad_group_id']);
    t.index(['ad_campaign_id']);
  });

  for (const [table, grain] of [['ad_delivery_hours', 'hour'], ['ad_delivery_days', 'day']] as const) {
    await knex.schema.createTable(table, (t) => {
      t.text('ad_id').notNullable().references('ads.id');
      timestamp(t, grain).notNullable();
      t.text('account_id').notNullable();
      t.text('ad_campaign_id').notNullable();
      t.text('ad_group_id').notNullable();
      t.bigInteger('impressions').notNullable();
      t.bigInteger('clicks').notNullable();
      t.bigInteger('results').notNullable();
      money(t, 'spend').notNullable();
      money(t, 'result_value').notNullable();
      t.primary(['ad_id', grain]);
      t.index(['ad_campaign_id', grain]);
      t.index(['ad_group_id', grain]);
      t.index(['account_id', grain]);
    });
  }

  // One charge per campaign and delivered hour: its spend, billed to the primary method, else the backup.
  await knex.schema.createTable('ad_charges', (t) => {
    t.text('id').primary(); // adchg_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('ad_campaign_id').notNullable().references('ad_campaigns.id');
    timestamp(t, 'hour').notNullable();
    money(t, 'amount').notNullable();
    t.text('currency').notNullable();
    t.text('status').notNullable(); // succeeded | failed
    t.text('method_type').nullable();
    t.text('method_id').nullable();
    t.text('failure_reason').nullable();
    t.integer('attempts').notNullable().defaultTo(1);
    timestamps(t, knex);
    t.unique(['ad_campaign_id', 'hour']);
  });
  await knex.raw("create index ad_charges_failed on ad_charges (account_id) where status = 'failed'");
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['ad_charges', 'ad_delivery_days', 'ad_delivery_hours', 'ads', 'ad_groups', 'ad_campaigns']) {
    await knex.schema.dropTableIfExists(table);
  }
}
