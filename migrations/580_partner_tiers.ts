// Partner businesses made real (spec/areas/partners.yaml): a referral is a relation per (account, tier): the partner
// named by affiliate_code is its first tier, and the partner who referred that partner (an account the partner owns
// was itself referred) its second tier, on a row of its own. Each relation has a referral window (referral_expires_at,
// backfilled for existing rows), and may be removed by its partner (removed_at). Earnings are per relation, so one
// payment (source) earns each relation at most once.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table partner_businesses
    add column tier text not null default 'first',
    add column first_tier_business_id text references partner_businesses(id),
    add column removed_at timestamptz(3)`);
  await knex.raw(`update partner_businesses set referral_expires_at = referral_started_at + interval '365 days'
    where referral_expires_at is null`);
  await knex.raw(`alter table partner_businesses
    alter column referral_expires_at set not null,
    add constraint partner_businesses_tier check (tier in ('first', 'second')),
    add constraint partner_businesses_upline check ((tier = 'second') = (first_tier_business_id is not null)),
    add constraint partner_businesses_removed check ((status = 'removed') = (removed_at is not null)),
    drop constraint partner_businesses_account_id_unique,
    add constraint partner_businesses_account_tier unique (account_id, tier)`);
  await knex.raw('drop index partner_earnings_source');
  await knex.raw('create unique index partner_earnings_source on partner_earnings (partner_business_id, source_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("delete from partner_earnings where partner_business_id in (select id from partner_businesses where tier = 'second')");
  await knex.raw("delete from partner_businesses where tier = 'second'");
  await knex.raw('drop index partner_earnings_source');
  await knex.raw('create unique index partner_earnings_source on partner_earnings (source_id)');
  await knex.raw(`alter table partner_businesses
    drop constraint partner_businesses_account_tier, add constraint partner_businesses_account_id_unique unique (account_id),
    drop constraint partner_businesses_removed, drop constraint partner_businesses_upline, drop constraint partner_businesses_tier,
    alter column referral_expires_at drop not null,
    drop column removed_at, drop column first_tier_business_id, drop column tier`);
}
