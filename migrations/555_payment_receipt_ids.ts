// Receipts get an id (rcpt_), and a new receipt's link token is derived from it (runtime/sealed-secrets.ts
// derivedSecret) instead of drawn at random: the row still keeps only the token's hash, and the link can be shown
// again from the id, as older pins' payment pdf_url does (handlers/payments/receipts.ts). Receipts made before have
// no id (their random tokens cannot be recovered) and are never shown again.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table payment_receipts add column if not exists id text unique');
  await knex.raw('create index if not exists payment_receipts_payment_newest on payment_receipts (payment_id, created_at desc) where id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists payment_receipts_payment_newest');
  await knex.raw('alter table payment_receipts drop column if exists id');
}
