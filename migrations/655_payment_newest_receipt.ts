// An older pin's payment shows pdf_url, its newest receipt's link while the receipt lasts (changelog entry 4 hid it
// at the head). The payment keeps that receipt's id and expiry, written with the receipt
// (handlers/payments/receipts.ts), so such a pin's page of payments reads them with each row instead of probing
// payment_receipts once per row. Nothing else read the receipts by payment, so that index goes.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table payments add column if not exists newest_receipt_id text,
    add column if not exists newest_receipt_expires_at timestamptz(3)`);
  await knex.raw(`update payments p set newest_receipt_id = r.id, newest_receipt_expires_at = r.expires_at
    from (select distinct on (payment_id) payment_id, id, expires_at from payment_receipts where id is not null
      order by payment_id, created_at desc) r
    where r.payment_id = p.id`);
  await knex.raw('drop index if exists payment_receipts_payment_newest');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('create index if not exists payment_receipts_payment_newest on payment_receipts (payment_id, created_at desc) where id is not null');
  await knex.raw('alter table payments drop column if exists newest_receipt_id, drop column if exists newest_receipt_expires_at');
}
