// Partner earnings reversed on refunds and lost chargebacks (handlers/partners/reverse.ts): a reversal is an earning
// row of its own (status reversed, negative amounts) naming the earning it reverses and what caused it (the refund or
// the dispute: source_id). An original earning's source is its payment, so "a payment earns once" is now "a source
// is recorded once" (one unique index for both kinds).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table partner_earnings
    add column source_id text,
    add column reverses_id text references partner_earnings(id),
    add column reversal_reason text`);
  await knex.raw('update partner_earnings set source_id = payment_id');
  await knex.raw(`alter table partner_earnings
    alter column source_id set not null,
    drop constraint partner_earnings_payment_id_unique,
    add constraint partner_earnings_reversal check ((status = 'reversed') = (reverses_id is not null)
      and (reverses_id is null) = (reversal_reason is null) and (reverses_id is null) = (source_id = payment_id)),
    add constraint partner_earnings_reversal_reason check (reversal_reason in ('refund', 'chargeback')),
    add constraint partner_earnings_reversal_sign check (reverses_id is null or (commission_amount < 0 and transaction_amount <= 0))`);
  await knex.raw('create unique index partner_earnings_source on partner_earnings (source_id)');
  await knex.raw('create index partner_earnings_payment on partner_earnings (payment_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("delete from partner_earnings where status = 'reversed'");
  await knex.raw(`drop index partner_earnings_payment; drop index partner_earnings_source;
    alter table partner_earnings drop constraint partner_earnings_reversal_sign, drop constraint partner_earnings_reversal_reason,
      drop constraint partner_earnings_reversal, drop column reversal_reason, drop column reverses_id, drop column source_id,
      add constraint partner_earnings_payment_id_unique unique (payment_id)`);
}
