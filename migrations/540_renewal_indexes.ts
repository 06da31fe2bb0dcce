// What renewals read per membership, by index whatever the size of the tables: a member's saved cards (the renewal's
// card, handlers/memberships/renewal-card.ts: a full scan of payment_methods per renewal before, 17 ms at 50,000
// cards), and a sandbox clock's due memberships by account (handlers/memberships/period-sweep.ts on a clock reads
// only its accounts' rows, not every membership due at real time).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index if not exists payment_methods_member_id on payment_methods (member_id) where member_id is not null');
  await knex.raw('create index if not exists memberships_account_due_at on memberships (account_id, due_at) where due_at is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists memberships_account_due_at');
  await knex.raw('drop index if exists payment_methods_member_id');
}
