// Memberships live over time (handlers/memberships/period-step.ts). Variants gain expiration_days (a one_time grant's
// days of access) and split_pay_required_payments (a renewal plan that completes after that many payments).
// memberships.due_at is the instant of a membership's next timed step (renewal, scheduled cancellation, expiry,
// completion, a dunning retry), null when nothing is timed; the sweep finds due rows on its partial index, so its
// cost follows the rows that are due, not the rows that exist. A renewal payment stores the period it pays
// (renewal_period_start): one subscription_cycle payment per membership and period, whatever runs twice. tax_country
// keeps the buyer's country from the purchase so a renewal is taxed as the purchase was.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table plans add column if not exists expiration_days integer,
    add column if not exists split_pay_required_payments integer`);
  await knex.raw(`alter table memberships add column if not exists due_at timestamptz(3)`);
  await knex.raw(`alter table payments add column if not exists renewal_period_start timestamptz(3),
    add column if not exists tax_country text`);
  // Live memberships of existing databases are timed from their period end, as new ones are.
  await knex.raw(`update memberships set due_at = current_period_end
    where status in ('trialing', 'active') and current_period_end is not null and due_at is null`);
  await knex.raw('create index if not exists memberships_due_at on memberships (due_at) where due_at is not null');
  await knex.raw(`create unique index if not exists payments_one_renewal_per_period on payments (membership_id, renewal_period_start)
    where billing_reason = 'subscription_cycle' and renewal_period_start is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists payments_one_renewal_per_period');
  await knex.raw('drop index if exists memberships_due_at');
  await knex.raw('alter table payments drop column if exists renewal_period_start, drop column if exists tax_country');
  await knex.raw('alter table memberships drop column if exists due_at');
  await knex.raw('alter table plans drop column if exists expiration_days, drop column if exists split_pay_required_payments');
}
