// Lifetime volume from real payments (handlers/accounts/lifetime-volume.ts): each payment remembers the USD it counts
// in its seller's accounts.lifetime_volume_usd (its usd_total once settled, less the share the buyer got back by
// refunds and lost or unanswered chargebacks), so a refund or a ruling moves the account's total by exactly the
// difference, whatever happened before. The account total is then backfilled from the payments as they stand.
// Milestone rewards (reward_payouts, one row per account and milestone: its primary key) are paid by the settlement
// that next raises the volume; an account this backfill takes past a threshold shows that milestone pending until then.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table payments add column volume_usd bigint not null default 0');
  // back = what the buyer got back (refunds, lost or closed disputes), at most the total; the share of usd_total it
  // stands for is rounded half up in integer arithmetic, as the handlers do.
  await knex.raw(`update payments p set volume_usd = p.usd_total - (2 * p.usd_total * b.back + p.total) / (2 * p.total)
    from (select q.id, least(q.total, q.refunded_amount + coalesce((select sum(d.amount) from disputes d
        where d.payment_id = q.id and d.status in ('lost', 'closed'))::bigint, 0)) as back
      from payments q where q.settlement_time_at is not null and q.total > 0) b
    where p.id = b.id`);
  await knex.raw(`update accounts a set lifetime_volume_usd = coalesce(v.volume, 0)
    from accounts x left join (select account_id, sum(volume_usd) as volume from payments group by account_id) v on v.account_id = x.id
    where a.id = x.id and a.lifetime_volume_usd is distinct from coalesce(v.volume, 0)`);
  await knex.raw(`alter table payments add constraint payments_volume_usd check (volume_usd >= 0 and volume_usd <= usd_total)`);
  // GET /accounts?order=volume&parent_account_id= (and its volume bounds) walks one platform's connected accounts in
  // volume order; (lifetime_volume_usd, id) alone walks every platform's (test/large_tables/accounts-by-volume.test.ts).
  await knex.raw('create index accounts_parent_volume on accounts (parent_id, lifetime_volume_usd, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index accounts_parent_volume');
  await knex.raw('alter table payments drop constraint payments_volume_usd, drop column volume_usd');
}
