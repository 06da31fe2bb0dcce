// Transfers between balances (spec/areas/transfers.yaml). One row per transfer; a claim link is a row whose funds sit
// in its origin's held bucket, and each claim of it is a balance transfer row of its own pointing back at it
// (claim_link_id). The money itself moves only in ledger postings; these rows say why.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('transfers', (t) => {
    t.text('id').primary(); // xfer_
    t.text('type').notNullable(); // balance | claim_link
    t.text('status').notNullable(); // completed | pending | claimed | expired | canceled
    // A side is a business account (biz_) or a user's personal wallet (user_); the ledger account is its balance.
    t.text('origin_id').notNullable();
    t.text('origin_ledger_id').notNullable();
    t.text('destination_id').nullable();
    t.text('destination_ledger_id').nullable();
    t.text('claim_link_id').nullable().references('transfers.id');
    t.text('currency').notNullable();
    money(t, 'amount').notNullable(); // minor units; per share for a claim link
    money(t, 'fee').notNullable(); // minor units; per share for a claim link
    t.integer('redeemable_count').nullable();
    t.integer('claimed_count').nullable();
    t.text('claim_code').nullable().unique(); // the secret of claim_url
    timestamp(t, 'expires_at').nullable();
    t.text('notes').nullable();
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.text('idempotence_key').nullable();
    t.text('tracking_token').notNullable().unique();
    timestamp(t, 'failed_at').nullable();
    timestamp(t, 'funds_returned_at').nullable();
    timestamps(t, knex);
    // Lists read each visible side's newest rows by these (handlers/transfers/transfer-list.ts).
    t.index(['origin_id', 'created_at', 'id']);
    t.index(['destination_id', 'created_at', 'id']);
    t.index(['origin_id', 'amount', 'id']);
    t.index(['destination_id', 'amount', 'id']);
  });
  await knex.raw(`alter table transfers
    add constraint transfers_type check (type in ('balance', 'claim_link')),
    add constraint transfers_status check (status in ('completed', 'pending', 'claimed', 'expired', 'canceled')),
    add constraint transfers_amounts check (amount > 0 and fee >= 0),
    add constraint transfers_balance_shape check (type <> 'balance' or (status = 'completed' and destination_id is not null
      and destination_ledger_id is not null and redeemable_count is null and claim_code is null)),
    add constraint transfers_claim_link_shape check (type <> 'claim_link' or (claim_code is not null and expires_at is not null
      and redeemable_count between 1 and 100 and claimed_count between 0 and redeemable_count and claim_link_id is null
      and destination_ledger_id is null))`);
  // The same idempotence_key from the same origin makes one transfer.
  await knex.raw(`create unique index transfers_origin_idempotence_key on transfers (origin_id, idempotence_key)
    where idempotence_key is not null`);
  // A user claims a link once: the second claim's insert fails, whatever the checks before it saw.
  await knex.raw(`create unique index transfers_one_claim_per_user on transfers (claim_link_id, destination_id)
    where claim_link_id is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('transfers');
}
