// External (formerly social) accounts (spec/areas/external_accounts.yaml): an account's profiles on the sandbox social
// and ad network, and the posts the network holds for each. A connection starts 'connecting'; the
// connect_external_account job (handlers/external_accounts/sandbox-network.ts) looks the handle up on the network and
// brings in its posts. Ads (campaigns, ad groups, ads) reference these rows by id.
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('external_accounts', (t) => {
    t.text('id').primary(); // sacc_ (kept from social accounts)
    t.text('account_id').notNullable().references('accounts.id');
    t.text('platform').notNullable();
    t.text('username').notNullable(); // the handle on the network, lower-cased
    t.text('name').nullable();
    t.text('external_id').nullable(); // the network's id, once connected
    t.text('url').nullable();
    t.text('profile_picture_url').nullable();
    t.boolean('verified').notNullable().defaultTo(false);
    t.specificType('scopes', 'text[]').notNullable().defaultTo('{}'); // capabilities granted, e.g. {advertise}
    t.text('status').notNullable(); // connecting | connected | failed
    t.text('error').nullable();
    // An Instagram-style profile owned by a page of the same account.
    t.text('parent_external_account_id').nullable().references('external_accounts.id');
    t.integer('display_order').notNullable().defaultTo(0);
    timestamp(t, 'connected_at').nullable();
    timestamp(t, 'deleted_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['account_id', 'display_order', 'id']);
  });
  await knex.raw(`alter table external_accounts
    add constraint external_accounts_platform check (platform in ('facebook', 'instagram', 'x', 'youtube', 'tiktok')),
    add constraint external_accounts_status check (status in ('connecting', 'connected', 'failed')),
    add constraint external_accounts_connected check ((status = 'connected') = (connected_at is not null))`);
  // One live connection of a handle per account and platform (a deleted one may be connected again).
  await knex.raw(`create unique index external_accounts_live_handle on external_accounts (account_id, platform, username)
    where deleted_at is null`);

  await knex.schema.createTable('external_account_posts', (t) => {
    t.text('id').primary(); // xpost_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('external_account_id').notNullable().references('external_accounts.id');
    t.text('platform_post_id').notNullable(); // the network's id of the post
    t.text('media_type').notNullable(); // image | video
    t.text('caption').nullable();
    t.text('video_id').nullable(); // the network's id of the video, for video posts
    t.text('media_url').nullable();
    t.text('thumbnail_url').nullable();
    t.text('destination_url').nullable();
    t.text('call_to_action').nullable();
    timestamp(t, 'published_at').notNullable();
    timestamps(t, knex);
    t.unique(['external_account_id', 'platform_post_id']); // a post is brought in once, however often the job runs
    t.index(['external_account_id', 'created_at', 'id']);
    t.index(['account_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table external_account_posts
    add constraint external_account_posts_media check (media_type in ('image', 'video')),
    add constraint external_account_posts_video check ((media_type = 'video') = (video_id is not null))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('external_account_posts');
  await knex.schema.dropTableIfExists('external_accounts');
}
