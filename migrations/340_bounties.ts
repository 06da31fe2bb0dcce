// Bounties (spec/areas/bounties.yaml): paid tasks whose reward pool is escrowed from the funding account's balance
// (ledger: available -> held, entry <bounty id>:escrow), paid per approved submission to the worker's wallet (entry
// <submission id>:paid) and, when the bounty is closed or exhausted, what is left goes back (entry <bounty id>:returned).
// escrow_amount = paid_out_amount + returned_amount + what is still held, in minor units, always.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bounties', (t) => {
    t.text('id').primary(); // bnty_
    t.text('account_id').notNullable().references('accounts.id'); // the funding account
    t.text('title').notNullable();
    t.text('description').notNullable();
    t.text('status').notNullable();
    t.text('currency').notNullable();
    t.integer('gross_reward_amount').notNullable(); // whole dollars per accepted submission (the client's contract)
    t.integer('accepted_submissions_limit').notNullable();
    t.integer('accepted_submissions_count').notNullable().defaultTo(0);
    money(t, 'escrow_amount').notNullable(); // minor units held at creation
    money(t, 'paid_out_amount').notNullable().defaultTo(0);
    money(t, 'returned_amount').notNullable().defaultTo(0);
    timestamp(t, 'submissions_closed_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table bounties
    add constraint bounties_status check (status in ('open', 'closed', 'completed')),
    add constraint bounties_slots check (accepted_submissions_count between 0 and accepted_submissions_limit),
    add constraint bounties_money check (paid_out_amount >= 0 and returned_amount >= 0 and paid_out_amount + returned_amount <= escrow_amount)`);

  await knex.schema.createTable('bounty_submissions', (t) => {
    t.text('id').primary(); // bsub_
    t.text('bounty_id').notNullable().references('bounties.id');
    t.text('account_id').notNullable().references('accounts.id'); // the bounty's account: who reviews it
    t.text('user_id').notNullable().references('users.id'); // the worker
    t.text('status').notNullable();
    t.text('content').nullable();
    t.text('deliverable_type').nullable();
    t.jsonb('deliverable_urls').nullable();
    t.text('denial_reason').nullable();
    timestamp(t, 'submitted_at').nullable();
    timestamp(t, 'resolved_at').nullable();
    timestamp(t, 'deleted_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['bounty_id']);
  });
  await knex.raw(`alter table bounty_submissions
    add constraint bounty_submissions_status check (status in ('in_progress', 'submitted', 'approved', 'denied'))`);
  // A worker works a bounty once at a time: a denied or deleted attempt lets them start again.
  await knex.raw(`create unique index bounty_submissions_one_live on bounty_submissions (bounty_id, user_id)
    where deleted_at is null and status <> 'denied'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('bounty_submissions');
  await knex.schema.dropTableIfExists('bounties');
}
