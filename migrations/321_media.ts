// Media generations (spec/areas/media.yaml): a row per request, billed from the account's USD balance: the price is
// held when the request is made (ledger entry <id>:reserved), then charged (<id>:charged) or given back
// (<id>:released) by the generate_media job; the result is a file of the files area owned by the account.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('media_assets', (t) => {
    t.text('id').primary(); // media_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('type').notNullable(); // image | video
    t.text('prompt').notNullable();
    t.text('resolution').notNullable(); // low | standard | high
    t.integer('duration_seconds').nullable(); // videos only
    t.text('status').notNullable(); // pending | completed | failed
    t.text('currency').notNullable();
    money(t, 'price').notNullable();
    t.text('file_id').nullable().references('files.id');
    t.text('failure_reason').nullable();
    timestamp(t, 'completed_at').nullable();
    timestamp(t, 'failed_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table media_assets
    add constraint media_assets_type check (type in ('image', 'video')),
    add constraint media_assets_status check (status in ('pending', 'completed', 'failed')),
    add constraint media_assets_price check (price > 0),
    add constraint media_assets_duration check ((type = 'video') = (duration_seconds is not null)),
    add constraint media_assets_file check ((status = 'completed') = (file_id is not null))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('media_assets');
}
