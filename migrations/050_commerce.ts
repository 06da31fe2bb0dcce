// Storage for the commerce core: catalogue, confirmation tokens, payments, fees, refunds, setup intents,
// members, memberships and webhook deliveries. Money columns are integers in minor units; never floats.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';


export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('products', (t) => {
    t.text('id').primary(); // prod_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('title').notNullable();
    t.text('description').nullable();
    t.text('visibility').notNullable().defaultTo('visible'); // visible | hidden | archived
    t.boolean('includes_license').notNullable().defaultTo(false);
    t.jsonb('metadata').notNullable().defaultTo('{}');
    timestamp(t, 'deleted_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });

  await knex.schema.createTable('plans', (t) => {
    t.text('id').primary(); // plan_ (variants keep the plan prefix)
    t.text('account_id').notNullable().references('accounts.id');
    t.text('product_id').notNullable().references('products.id');
    t.text('title').nullable();
    t.text('plan_type').notNullable(); // renewal | one_time
    t.integer('billing_period_days').nullable();
    t.integer('trial_period_days').nullable();
    t.text('currency').notNullable().defaultTo('usd');
    money(t, 'initial_price').notNullable().defaultTo(0);
    money(t, 'renewal_price').notNullable().defaultTo(0);
    t.text('visibility').notNullable().defaultTo('visible'); // visible | hidden | quick_link | archived
    t.integer('stock').nullable();
    t.text('short_link').nullable().unique();
    t.text('three_d_secure_policy').nullable();
    t.jsonb('metadata').notNullable().defaultTo('{}');
    timestamp(t, 'deleted_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['product_id']);
  });

  await knex.schema.createTable('promo_codes', (t) => {
    t.text('id').primary(); // promo_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('code').notNullable();
    t.text('status').notNullable().defaultTo('active'); // active | inactive | archived
    money(t, 'amount_off').nullable();
    t.decimal('percent_off', 5, 2).nullable();
    t.text('currency').nullable();
    t.text('product_id').nullable().references('products.id');
    t.text('plan_id').nullable().references('plans.id');
    t.integer('max_redemptions').nullable();
    t.integer('redemptions').notNullable().defaultTo(0);
    timestamp(t, 'expires_at').nullable();
    timestamps(t, knex);
    t.unique(['account_id', 'code']);
    t.index(['account_id', 'created_at', 'id']);
  });

  await knex.schema.createTable('checkout_configurations', (t) => {
    t.text('id').primary(); // chcfg_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('mode').notNullable(); // payment | setup
    t.text('plan_id').nullable().references('plans.id');
    t.text('redirect_url').nullable();
    t.text('three_d_secure_policy').nullable();
    t.jsonb('metadata').notNullable().defaultTo('{}');
    timestamp(t, 'deleted_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });

  await knex.schema.createTable('members', (t) => {
    t.text('id').primary(); // mber_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('user_id').notNullable().references('users.id');
    t.text('status').notNullable().defaultTo('joined'); // joined | left
    t.text('access_level').notNullable().defaultTo('customer'); // customer | admin | no_access
    timestamp(t, 'joined_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
    timestamp(t, 'left_at').nullable();
    timestamp(t, 'last_opened_at').nullable();
    timestamps(t, knex);
    t.unique(['account_id', 'user_id']);
    t.index(['account_id', 'created_at', 'id']);
  });

  await knex.schema.alterTable('payment_methods', (t) => {
    t.text('member_id').nullable().references('members.id');
    t.text('fingerprint').nullable();
    t.text('test_behaviour').nullable(); // the simulated processor's outcome for this card
  });

  await knex.schema.createTable('memberships', (t) => {
    t.text('id').primary(); // mem_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('member_id').notNullable().references('members.id');
    t.text('user_id').notNullable().references('users.id');
    t.text('product_id').notNullable().references('products.id');
    t.text('plan_id').notNullable().references('plans.id');
    t.text('status').notNullable(); // trialing | active | past_due | paused | canceled | expired | completed
    timestamp(t, 'current_period_start').nullable();
    timestamp(t, 'current_period_end').nullable();
    t.boolean('cancel_at_period_end').notNullable().defaultTo(false);
    timestamp(t, 'canceled_at').nullable();
    timestamp(t, 'paused_at').nullable();
    t.text('license_key').nullable().unique();
    t.jsonb('metadata').notNullable().defaultTo('{}');
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('confirmation_tokens', (t) => {
    t.text('id').primary(); // ctok_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('card_brand').nullable();
    t.text('last4').notNullable();
    t.integer('exp_month').notNullable();
    t.integer('exp_year').notNullable();
    t.text('fingerprint').notNullable();
    t.text('test_behaviour').notNullable(); // succeeds | declined | insufficient_funds | requires_3ds
    timestamp(t, 'used_at').nullable();
    timestamp(t, 'expires_at').notNullable();
    timestamps(t, knex);
  });

  await knex.schema.createTable('payments', (t) => {
    t.text('id').primary(); // pay_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('plan_id').nullable().references('plans.id');
    t.text('product_id').nullable().references('products.id');
    t.text('membership_id').nullable().references('memberships.id');
    t.text('member_id').nullable().references('members.id');
    t.text('user_id').nullable().references('users.id');
    t.text('promo_code_id').nullable().references('promo_codes.id');
    t.text('shipment_id').nullable();
    t.text('payment_method_id').nullable().references('payment_methods.id');
    t.text('confirmation_token_id').nullable().references('confirmation_tokens.id');
    t.text('checkout_configuration_id').nullable().references('checkout_configurations.id');
    t.text('status').notNullable();
    t.text('billing_reason').notNullable();
    t.text('currency').notNullable();
    money(t, 'subtotal').notNullable();
    money(t, 'tax_amount').notNullable().defaultTo(0);
    money(t, 'total').notNullable();
    money(t, 'refunded_amount').notNullable().defaultTo(0);
    money(t, 'tax_refunded_amount').notNullable().defaultTo(0);
    money(t, 'fee_amount').notNullable().defaultTo(0);
    money(t, 'usd_total').notNullable();
    t.boolean('capture').notNullable().defaultTo(true);
    t.boolean('off_session').notNullable().defaultTo(false);
    t.text('return_url').nullable();
    t.text('three_d_secure_policy').nullable();
    t.jsonb('next_action').nullable();
    t.jsonb('payment_instrument').nullable();
    t.text('failure_code').nullable();
    t.text('failure_message').nullable();
    timestamp(t, 'last_payment_attempt_at').nullable();
    timestamp(t, 'next_payment_attempt_at').nullable();
    timestamp(t, 'settlement_time_at').nullable();
    t.jsonb('metadata').notNullable().defaultTo('{}');
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['created_at', 'id']);
    t.index(['member_id']);
    t.index(['membership_id']);
  });

  await knex.schema.createTable('payment_fees', (t) => {
    t.bigIncrements('id').primary();
    t.text('payment_id').notNullable().references('payments.id');
    t.text('type').notNullable();
    t.text('origin').notNullable();
    t.text('label').notNullable();
    t.text('description').nullable();
    money(t, 'amount').notNullable();
    t.text('currency').notNullable();
    money(t, 'settlement_amount').notNullable();
    t.text('settlement_currency').notNullable();
    timestamp(t, 'collected_at').nullable();
    t.index(['payment_id']);
  });

  await knex.schema.createTable('refunds', (t) => {
    t.text('id').primary(); // rfnd_
    t.text('payment_id').notNullable().references('payments.id');
    t.text('account_id').notNullable().references('accounts.id');
    money(t, 'amount').notNullable();
    t.text('currency').notNullable();
    money(t, 'original_amount').notNullable();
    t.text('original_currency').notNullable();
    t.text('provider').notNullable().defaultTo('sandbox');
    t.text('status').notNullable(); // pending | succeeded | failed
    t.text('failure_reason').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['payment_id']);
  });

  await knex.schema.createTable('payment_receipts', (t) => {
    t.text('token').primary();
    t.text('payment_id').notNullable().references('payments.id');
    t.binary('pdf').notNullable();
    timestamp(t, 'expires_at').notNullable();
    timestamps(t, knex);
  });

  await knex.schema.createTable('setup_intents', (t) => {
    t.text('id').primary(); // seti_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('member_id').nullable().references('members.id');
    t.text('user_id').nullable().references('users.id');
    t.text('payment_method_id').nullable().references('payment_methods.id');
    t.text('checkout_configuration_id').nullable().references('checkout_configurations.id');
    t.text('confirmation_token_id').nullable().references('confirmation_tokens.id');
    t.text('status').notNullable(); // processing | requires_action | succeeded | canceled
    t.text('return_url').nullable();
    t.text('payment_method_type').notNullable().defaultTo('card');
    t.jsonb('payment_instrument').nullable();
    t.jsonb('last_setup_error').nullable();
    t.text('client_secret').nullable();
    t.boolean('created_via_api').notNullable().defaultTo(true);
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.text('id').primary(); // whdl_
    t.text('webhook_id').notNullable().references('webhooks.id');
    t.text('event_id').notNullable().references('events.id');
    t.text('status').notNullable(); // pending | succeeded | failed
    t.integer('attempts').notNullable().defaultTo(0);
    timestamp(t, 'next_attempt_at').nullable();
    timestamp(t, 'delivered_at').nullable();
    timestamps(t, knex);
    t.unique(['webhook_id', 'event_id']);
    t.index(['webhook_id', 'created_at', 'id']);
  });

  await knex.schema.createTable('webhook_delivery_attempts', (t) => {
    t.bigIncrements('id').primary();
    t.text('delivery_id').notNullable().references('webhook_deliveries.id');
    t.integer('attempt').notNullable();
    t.integer('response_status').nullable();
    t.text('error').nullable();
    t.integer('duration_ms').notNullable();
    timestamp(t, 'created_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
    t.index(['delivery_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['webhook_delivery_attempts', 'webhook_deliveries', 'setup_intents', 'payment_receipts', 'refunds',
    'payment_fees', 'payments', 'confirmation_tokens', 'memberships']) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable('payment_methods', (t) => {
    t.dropColumn('member_id');
    t.dropColumn('fingerprint');
    t.dropColumn('test_behaviour');
  });
  for (const table of ['members', 'checkout_configurations', 'promo_codes', 'plans', 'products']) {
    await knex.schema.dropTableIfExists(table);
  }
}
