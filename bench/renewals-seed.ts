// The renewals scenario's data (bench/renewals.ts), written with set-based SQL: a shop with a monthly plan, and
// live memberships as the product leaves them after a purchase: a buyer, their member, the card they saved, the
// membership in its period (due_at at its end, migrations/530_membership_lifecycle.ts) and the payment that paid the
// period with that card, which is the card a renewal charges (handlers/memberships/renewal-card.ts).
import type { Knex } from 'knex';
import { insertAccount } from '../handlers/accounts/account-service.js';
import { newId } from '../runtime/ids.js';

export interface RenewalShop {
  accountId: string;
  productId: string;
  planId: string;
}

const PERIOD_DAYS = 30;
export const RENEWAL_PRICE = 900;

export async function renewalShop(db: Knex, title: string): Promise<RenewalShop> {
  return db.transaction(async (trx) => {
    const account = await insertAccount(trx, { title, email: 'renewals@example.com', country: 'US' });
    const productId = newId('prod_');
    await trx('products').insert({ id: productId, account_id: account.id, title: 'Bench membership' });
    const planId = newId('plan_');
    await trx('plans').insert({ id: planId, account_id: account.id, product_id: productId, plan_type: 'renewal',
      billing_period_days: PERIOD_DAYS, currency: 'usd', initial_price: RENEWAL_PRICE, renewal_price: RENEWAL_PRICE });
    return { accountId: account.id, productId, planId };
  });
}

// One statement per table over generate_series; row n of each table belongs to membership n. A due membership's
// period ended up to an hour ago; one not due ends within the next 29 days (spread, as real renewals are).
const SEED = `
  insert into users (id, username, email, name)
    select 'user_rb' || :tag || '_' || n, 'rb_' || :tag || '_' || n, 'rb_' || :tag || '_' || n || '@example.com', 'Renewal buyer ' || n
    from generate_series(1, cast(:count as int)) n;
  insert into members (id, account_id, user_id, joined_at, created_at, updated_at)
    select 'mber_rb' || :tag || '_' || n, :account, 'user_rb' || :tag || '_' || n, p.start, p.start, p.start
    from generate_series(1, cast(:count as int)) n, lateral (select __START__ as start) p;
  insert into payment_methods (id, account_id, user_id, member_id, type, card_brand, last4, exp_month, exp_year, fingerprint,
      test_behaviour, created_at, updated_at)
    select 'payt_rb' || :tag || '_' || n, :account, 'user_rb' || :tag || '_' || n, 'mber_rb' || :tag || '_' || n, 'card', 'visa',
      '4242', 12, 2030, md5(:tag || n), 'succeeds', p.start, p.start
    from generate_series(1, cast(:count as int)) n, lateral (select __START__ as start) p;
  insert into memberships (id, account_id, member_id, user_id, product_id, plan_id, status, current_period_start,
      current_period_end, due_at, created_at, updated_at)
    select 'mem_rb' || :tag || '_' || n, :account, 'mber_rb' || :tag || '_' || n, 'user_rb' || :tag || '_' || n, :product, :plan,
      'active', p.start, p.start + interval '${PERIOD_DAYS} days', p.start + interval '${PERIOD_DAYS} days', p.start, p.start
    from generate_series(1, cast(:count as int)) n, lateral (select __START__ as start) p;
  insert into payments (id, account_id, plan_id, product_id, member_id, user_id, payment_method_id, membership_id, status,
      billing_reason, currency, subtotal, total, usd_total, payment_instrument, payment_method_type, created_at, updated_at)
    select 'pay_rb' || :tag || '_' || n, :account, :plan, :product, 'mber_rb' || :tag || '_' || n, 'user_rb' || :tag || '_' || n,
      'payt_rb' || :tag || '_' || n, 'mem_rb' || :tag || '_' || n, 'succeeded', 'subscription_create', 'usd', ${RENEWAL_PRICE},
      ${RENEWAL_PRICE}, ${RENEWAL_PRICE}, json_build_object('brand', 'visa', 'last4', '4242', 'exp_month', 12, 'exp_year', 2030), 'card', p.start, p.start
    from generate_series(1, cast(:count as int)) n, lateral (select __START__ as start) p;`;

const DUE_START = `date_trunc('milliseconds', now() - interval '${PERIOD_DAYS} days' - make_interval(secs => 3600.0 * n / cast(:count as int)))`;
const NOT_DUE_START = `date_trunc('milliseconds', now() - interval '${PERIOD_DAYS - 1} days' + make_interval(secs => ${(PERIOD_DAYS - 1) * 86_400}.0 * n / cast(:count as int)))`;

/** `count` memberships of the shop, due now or not due; `tag` keeps their ids apart from other seeds'. */
export async function seedMemberships(db: Knex, shop: RenewalShop, tag: string, count: number, due: boolean): Promise<void> {
  const sql = SEED.replaceAll('__START__', due ? DUE_START : NOT_DUE_START);
  await db.transaction(async (trx) => {
    for (const statement of sql.split(';').map((s) => s.trim()).filter(Boolean)) {
      await trx.raw(statement, { tag, count, account: shop.accountId, product: shop.productId, plan: shop.planId });
    }
  });
}
