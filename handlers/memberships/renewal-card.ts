// Which saved card a renewal (and each retry of it) charges: the card that paid the membership's last payment, unless
// the member saved a card since, which is then their default (a buyer updating their card, as Stripe's portal makes
// the new card the default); the member's newest card when the last payment saved none. Null: no card on file.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';

const PAID = `('succeeded', 'partially_refunded', 'refunded')`;

// Fixed SQL on plain pg (runtime/request-db.ts query): two index probes, the membership's payments and the member's cards.
const RENEWAL_CARD = `with last_paid as (
    select p.payment_method_id, coalesce(p.settlement_time_at, p.updated_at) as paid_at from payments p
    join payment_methods pm on pm.id = p.payment_method_id and pm.member_id = $2 and pm.last4 is not null
    where p.membership_id = $1 and p.status in ${PAID}
    order by p.created_at desc limit 1),
  newest as (select pm.id, pm.created_at from payment_methods pm where pm.member_id = $2 and pm.account_id = $3
    and pm.last4 is not null order by pm.created_at desc, pm.id desc limit 1)
  select case when last_paid.payment_method_id is null or newest.created_at > last_paid.paid_at then newest.id
    else last_paid.payment_method_id end as id
  from (select 1) one left join last_paid on true left join newest on true`;

export async function renewalCardOf(db: Knex, membership: { id: string; member_id: string; account_id: string }): Promise<string | null> {
  const [row] = await query<{ id: string | null }>(db, RENEWAL_CARD, [membership.id, membership.member_id, membership.account_id]);
  return row?.id ?? null;
}

/** How many payments of the membership were collected (the purchase included), for split_pay_required_payments. */
export async function paidPaymentsOf(db: Knex, membershipId: string): Promise<number> {
  const [row] = await query<{ n: number }>(db, `select count(*)::int as n from payments where membership_id = $1 and status in ${PAID}`,
    [membershipId]);
  return row.n;
}
