// The clearing sweep at real time (handlers/ledger/clearing.ts) walks payments_funds_to_clear in settlement order and
// skipped, every minute, every due payment of an account whose funds are held without a date (kyc_incomplete,
// compliance review): an unverified account that keeps selling piles them up (20,000 of them: a sequential scan of
// payments and 40,000 account probes, 40,625 buffers, per minute; test/large_tables/held-funds-clearing.test.ts).
// Now the sweep sets such a payment aside (funds_held) the first time it meets it, which takes it out of the index it
// walks, and puts an account's payments back (funds_held false) on its first run after the hold is lifted, finding
// the accounts with payments set aside by payments_funds_held (one probe per such account). On a sandbox clock the
// sweep reads its accounts' payments by account (payments_funds_to_clear_by_account) and ignores funds_held.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table payments add column funds_held boolean not null default false');
  await knex.raw('drop index payments_funds_to_clear');
  await knex.raw(`create index payments_funds_to_clear on payments (settlement_time_at)
    where funds_cleared_at is null and settlement_time_at is not null and not funds_held`);
  await knex.raw('create index payments_funds_held on payments (account_id) where funds_held');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index payments_funds_held');
  await knex.raw('drop index payments_funds_to_clear');
  await knex.raw(`create index payments_funds_to_clear on payments (settlement_time_at)
    where funds_cleared_at is null and settlement_time_at is not null`);
  await knex.raw('alter table payments drop column funds_held');
}
