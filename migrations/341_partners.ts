// Partner businesses (spec/areas/partners.yaml): an account created with affiliate_code is referred by the partner
// with that username; each of its settled USD payments earns the partner a share of the platform fee, paid in the
// settlement's transaction by a ledger entry (<payment id>:partner) from the platform's fee revenue into the
// partner's wallet. partner_earnings rows say why; the money is in the postings.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('partner_businesses', (t) => {
    t.text('id').primary(); // pbiz_
    t.text('account_id').notNullable().references('accounts.id'); // the referred account
    t.text('partner_user_id').notNullable().references('users.id');
    t.text('status').notNullable().defaultTo('active');
    t.integer('sales_percentage').notNullable(); // whole percent of the platform fee
    timestamp(t, 'referral_started_at').notNullable();
    timestamp(t, 'referral_expires_at').nullable();
    timestamps(t, knex);
    t.unique(['account_id']); // one referrer per account
    t.index(['partner_user_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table partner_businesses
    add constraint partner_businesses_status check (status in ('active', 'removed')),
    add constraint partner_businesses_sales check (sales_percentage between 0 and 100)`);

  await knex.schema.createTable('partner_earnings', (t) => {
    t.text('id').primary(); // pern_
    t.text('partner_business_id').notNullable().references('partner_businesses.id');
    t.text('account_id').notNullable().references('accounts.id');
    t.text('payment_id').notNullable().references('payments.id');
    t.text('product_id').nullable().references('products.id');
    t.text('income_source').notNullable();
    t.text('status').notNullable();
    t.integer('payout_percentage').notNullable();
    money(t, 'transaction_amount').notNullable(); // USD cents
    money(t, 'platform_fee_amount').notNullable();
    money(t, 'commission_amount').notNullable();
    timestamp(t, 'payout_at').nullable();
    timestamps(t, knex);
    t.unique(['payment_id']); // a payment earns once
    t.index(['partner_business_id', 'created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('partner_earnings');
  await knex.schema.dropTableIfExists('partner_businesses');
}
