// What the benchmarks read: a platform account with an admin API key, and a connected account under it with
// ledger postings, lifetime volume and a paid reward, so that every query of the account view returns rows.
import type { Knex } from 'knex';
import { insertAccount } from '../handlers/accounts/account-service.js';
import { issueApiKey } from '../handlers/api_keys/api-key-service.js';
import { newId } from '../runtime/ids.js';
import { insertUser } from '../handlers/users/user-service.js';
import { encodeCursor } from '../runtime/pagination.js';

export interface Fixture {
  platformId: string;
  connectedId: string;
  /** an admin API key on the platform account */
  apiKey: string;
  /** a variant of the connected account, and a member with a saved card, for POST /payments */
  planId: string;
  memberId: string;
  paymentMethodId: string;
  /** how many payments the connected account has, and a cursor 20 rows from the end of its newest-first list */
  paymentRows: number;
  deepCursor: string;
}

const PAYMENT_ROWS = Number(process.env.BENCH_PAYMENT_ROWS ?? 1_000_000);

/** A million payments in one statement: created a second apart, newest first in the list order. */
async function seedPayments(db: Knex, accountId: string, rows: number): Promise<string> {
  await db.raw(`insert into payments (id, account_id, status, billing_reason, currency, subtotal, total, usd_total, created_at, updated_at)
    select 'pay_bench' || lpad(n::text, 10, '0'), ?, 'succeeded', 'one_time', 'usd', 1000, 1000, 1000,
      date_trunc('milliseconds', now()) - make_interval(secs => n), date_trunc('milliseconds', now()) - make_interval(secs => n)
    from generate_series(1, ?) as n`, [accountId, rows]);
  await db.raw('analyze payments');
  const deep = await db('payments').where({ account_id: accountId }).orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }])
    .offset(20).first('id', 'created_at');
  return encodeCursor(deep.created_at, deep.id);
}

export async function seed(db: Knex): Promise<Fixture> {
  return db.transaction(async (trx) => {
    const platform = await insertAccount(trx, { title: 'Bench Platform', email: 'platform@example.com', country: 'US' });
    const connected = await insertAccount(trx, {
      title: 'Bench Connected Shop', email: 'shop@example.com', country: 'GB', parentId: platform.id, metadata: { external_id: 'shop-1' },
    });
    const key = await issueApiKey(trx, { accountId: platform.id, name: 'bench', role: 'admin' });
    await trx('accounts').where({ id: connected.id }).update({ lifetime_volume_usd: 2_500_000 });
    const buckets = ['available', 'pending', 'in_transit'];
    // 60 postings in 30 balanced entries: each moves money from the processor's clearing into a bucket.
    await trx('ledger_postings').insert(Array.from({ length: 30 }, (_, i) => {
      const entry = newId('le_');
      return [
        { entry_id: entry, account_id: connected.id, bucket: buckets[i % 3], currency: 'usd', amount: 1_000 + i },
        { entry_id: entry, account_id: connected.id, bucket: 'processor_clearing', currency: 'usd', amount: -(1_000 + i) },
      ];
    }).flat());
    await trx('reward_payouts').insert({ account_id: connected.id, milestone_id: 'rwd_10k', status: 'paid', paid_at: trx.fn.now() });
    const productId = newId('prod_');
    await trx('products').insert({ id: productId, account_id: connected.id, title: 'Bench course' });
    const planId = newId('plan_');
    await trx('plans').insert({ id: planId, account_id: connected.id, product_id: productId, plan_type: 'one_time', initial_price: 900, renewal_price: 900 });
    const buyer = await insertUser(trx, { username: 'bench_buyer', email: 'buyer@example.com', name: 'Bench Buyer' });
    const memberId = newId('mber_');
    await trx('members').insert({ id: memberId, account_id: connected.id, user_id: buyer.id });
    const paymentMethodId = newId('payt_');
    await trx('payment_methods').insert({
      id: paymentMethodId, account_id: connected.id, user_id: buyer.id, member_id: memberId, type: 'card', card_brand: 'visa',
      last4: '4242', exp_month: 12, exp_year: 2030, fingerprint: 'f'.repeat(64), test_behaviour: 'succeeds',
    });
    return { platformId: platform.id, connectedId: connected.id, apiKey: key.secret, planId, memberId, paymentMethodId };
  }).then(async (f) => ({ ...f, paymentRows: PAYMENT_ROWS, deepCursor: await seedPayments(db, f.connectedId, PAYMENT_ROWS) }));
}
