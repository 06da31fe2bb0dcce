// The renewals scenario's hand-written baseline (bench/renewals.ts): what a developer would write by hand for the
// same work with plain SQL, one statement per batch of 500 due memberships found on the due_at index: lock them,
// take each one's card from the payment that paid its period, insert the same renewal payments the framework's
// step writes (handlers/memberships/renewal-charge.ts), queue each one's collection, and take the memberships off the
// index while their charge is collected. No account rules, no pricing, no clock scope: the floor of the work.
import type { Knex } from 'knex';

const BATCH = 500;

const RENEW_BATCH = `with due as (
    select m.id, m.account_id, m.member_id, m.user_id, m.plan_id, m.product_id, m.current_period_end
    from memberships m where m.due_at is not null and m.due_at <= now()
    order by m.due_at, m.id limit ${BATCH} for update),
  moved as (update memberships m set due_at = null, updated_at = date_trunc('milliseconds', now()) from due where m.id = due.id),
  charge as (
    select due.*, 'pay_' || replace(gen_random_uuid()::text, '-', '') as payment_id, pl.renewal_price, pl.currency,
      coalesce(pl.three_d_secure_policy, a.three_d_secure_policy) as policy, last_paid.tax_country, pm.id as method_id,
      json_build_object('brand', pm.card_brand, 'last4', pm.last4, 'exp_month', pm.exp_month, 'exp_year', pm.exp_year) as instrument
    from due join plans pl on pl.id = due.plan_id join accounts a on a.id = due.account_id
    cross join lateral (select p.payment_method_id, p.tax_country from payments p where p.membership_id = due.id
      and p.status = 'succeeded' order by p.created_at desc limit 1) last_paid
    join payment_methods pm on pm.id = last_paid.payment_method_id),
  inserted as (
    insert into payments (id, account_id, plan_id, product_id, member_id, user_id, payment_method_id, status, billing_reason,
      currency, subtotal, tax_amount, total, usd_total, capture, off_session, three_d_secure_policy, authentication,
      payment_instrument, discount_amount, stock_held, save_payment_method, payment_method_type, membership_id,
      renewal_period_start, tax_country)
    select payment_id, account_id, plan_id, product_id, member_id, user_id, method_id, 'processing', 'subscription_cycle',
      currency, renewal_price, 0, renewal_price, renewal_price, true, true, coalesce(policy, 'automatic'), 'not_required',
      instrument, 0, false, false, 'card', id, current_period_end, tax_country
    from charge returning id)
  select count(*)::int as n, count(graphile_worker.add_job('collect_payment', json_build_object('payment_id', id),
    job_key => 'collect_payment:' || id, max_attempts => 25))::int as jobs
  from inserted`;

/** Renews every due membership, batch by batch; returns how many. */
export async function renewByHand(db: Knex): Promise<number> {
  let renewed = 0;
  for (;;) {
    const [{ n }] = (await db.raw(RENEW_BATCH)).rows as { n: number }[];
    renewed += n;
    if (n < BATCH) return renewed;
  }
}
