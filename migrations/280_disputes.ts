// Disputes (chargebacks) and dispute alerts (spec/areas/disputes.yaml). The sandbox card network
// (handlers/disputes/network.ts) writes them from background jobs; the money they move is in ledger postings
// (entry ids <dispute or alert id>:<step>); these rows say why.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('disputes', (t) => {
    t.text('id').primary(); // dspt_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('payment_id').notNullable().references('payments.id');
    t.text('product_id').nullable().references('products.id');
    t.text('plan_id').nullable().references('plans.id');
    t.text('user_id').nullable().references('users.id'); // the buyer
    t.text('member_id').nullable().references('members.id');
    t.text('alert_id').nullable(); // the alert that preceded it, if any
    t.text('status').notNullable();
    t.text('reason').notNullable();
    t.text('currency').notNullable();
    money(t, 'amount').notNullable();
    money(t, 'fee').notNullable();
    t.jsonb('evidence').notNullable().defaultTo('{}');
    timestamp(t, 'response_due_at').notNullable();
    timestamp(t, 'evidence_submitted_at').nullable();
    t.text('evidence_submitted_by').nullable(); // account | dispute_fighter
    timestamp(t, 'resolved_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['created_at', 'id']);
    // GET /disputes/summary groups an account's disputes by these, from the index alone.
    t.index(['account_id', 'status', 'currency']);
    t.index(['payment_id']);
  });
  await knex.raw(`alter table disputes
    add constraint disputes_status check (status in ('needs_response', 'under_review', 'won', 'lost', 'prevented', 'closed')),
    add constraint disputes_amounts check (amount > 0 and fee >= 0),
    add constraint disputes_submitted_by check (evidence_submitted_by in ('account', 'dispute_fighter'))`);
  // A payment is charged back once.
  await knex.raw('create unique index disputes_one_per_payment on disputes (payment_id)');

  await knex.schema.createTable('dispute_alerts', (t) => {
    t.text('id').primary(); // dspa_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('payment_id').notNullable().references('payments.id');
    t.text('type').notNullable(); // early_fraud_warning | dispute_alert | rapid_dispute_resolution
    t.text('outcome').notNullable(); // pending | prevented | disputed | refunded | expired
    t.text('dispute_id').nullable().references('disputes.id');
    t.text('currency').notNullable();
    money(t, 'amount').notNullable();
    money(t, 'fee').notNullable();
    t.boolean('fee_charged').notNullable();
    timestamp(t, 'actionable_until').nullable();
    timestamp(t, 'reported_at').notNullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['created_at', 'id']);
    t.index(['payment_id']);
  });
  await knex.raw(`alter table dispute_alerts
    add constraint dispute_alerts_type check (type in ('early_fraud_warning', 'dispute_alert', 'rapid_dispute_resolution')),
    add constraint dispute_alerts_outcome check (outcome in ('pending', 'prevented', 'disputed', 'refunded', 'expired')),
    add constraint dispute_alerts_fee check (fee >= 0 and (fee_charged or fee = 0) and (type <> 'early_fraud_warning' or not fee_charged))`);
  await knex.raw('create unique index dispute_alerts_one_per_payment on dispute_alerts (payment_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('dispute_alerts');
  await knex.schema.dropTableIfExists('disputes');
}
