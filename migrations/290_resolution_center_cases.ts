// Resolution Center cases (spec/areas/resolution_center_cases.yaml): a buyer's complaint about a payment, opened
// before any chargeback, and the timeline of what each side said and did. The money a case moves is a refund
// (the refunds table, settled by the refund job) or, when the platform rules for the buyer, a dispute
// (handlers/disputes/network.ts); these rows say why.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('resolution_center_cases', (t) => {
    t.text('id').primary(); // rcc_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('payment_id').notNullable().references('payments.id');
    t.text('user_id').nullable().references('users.id'); // the buyer who opened it
    t.text('member_id').nullable().references('members.id');
    t.text('reason').notNullable();
    t.text('status').notNullable();
    t.text('outcome').nullable();
    t.boolean('escalated').notNullable().defaultTo(false);
    t.text('currency').notNullable();
    money(t, 'amount').notNullable(); // what the buyer paid less what was refunded when the case opened
    t.text('refund_id').nullable().references('refunds.id');
    t.text('dispute_id').nullable().references('disputes.id');
    timestamp(t, 'response_due_at').nullable(); // the merchant's deadline while the case waits on the merchant
    timestamp(t, 'resolved_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['created_at', 'id']);
    // GET /resolution_center_cases/summary groups an account's cases by these, from the index alone.
    t.index(['account_id', 'status', 'outcome', 'currency']);
  });
  await knex.raw(`alter table resolution_center_cases
    add constraint rcc_status check (status in ('awaiting_merchant', 'awaiting_customer', 'awaiting_platform', 'closed')),
    add constraint rcc_outcome check (outcome in ('refunded', 'merchant_won', 'disputed', 'withdrawn', 'closed')),
    add constraint rcc_closed_has_outcome check ((status = 'closed') = (outcome is not null)),
    add constraint rcc_reason check (reason in ('forgot_to_cancel', 'item_not_received', 'significantly_not_as_described',
      'unauthorized_transaction', 'product_unacceptable')),
    add constraint rcc_amount check (amount > 0)`);
  // A payment has one case: a second complaint is added to the first (the buyer replies).
  await knex.raw('create unique index resolution_center_cases_one_per_payment on resolution_center_cases (payment_id)');

  await knex.schema.createTable('resolution_center_case_events', (t) => {
    t.text('id').primary(); // rcce_
    t.text('case_id').notNullable().references('resolution_center_cases.id');
    t.text('account_id').notNullable().references('accounts.id');
    t.text('actor').notNullable(); // merchant | customer | platform | system
    t.text('action').notNullable();
    t.text('message').nullable();
    t.jsonb('attachments').notNullable().defaultTo('[]');
    timestamps(t, knex);
    t.index(['case_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table resolution_center_case_events
    add constraint rcce_actor check (actor in ('merchant', 'customer', 'platform', 'system'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('resolution_center_case_events');
  await knex.schema.dropTableIfExists('resolution_center_cases');
}
