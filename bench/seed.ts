// What the benchmarks read: a platform account with an admin API key, and a connected account under it with
// ledger postings, lifetime volume and a paid reward, so that every query of the account view returns rows; a million
// payments of that account (bought by one buyer, so that the payment view's buyer join finds a row); and a twin of
// the connected account that differs only by its ledger history: a million postings instead of sixty.
import type { Knex } from 'knex';
import { insertAccount } from '../handlers/accounts/account-service.js';
import { issueApiKey } from '../handlers/api_keys/api-key-service.js';
import { newId } from '../runtime/ids.js';
import { insertUser } from '../handlers/users/user-service.js';
import { encodeCursor } from '../runtime/pagination.js';
import { ledgerOf } from '../handlers/ledger/ledgers.js';
import { postEntry } from '../handlers/ledger/post.js';

export interface Fixture {
  platformId: string;
  connectedId: string;
  /** an admin API key on the platform account */
  apiKey: string;
  /** a variant of the connected account, and a member with a saved card, for POST /payments */
  planId: string;
  memberId: string;
  paymentMethodId: string;
  /** a saved payout method of the connected account (a US bank account), whose balance covers every payout the bench asks */
  payoutMethodId: string;
  /** how many payments the connected account has, and a cursor 20 rows from the end of its newest-first list */
  paymentRows: number;
  deepCursor: string;
  /** one of those payments, for GET /payments/{id} */
  paymentId: string;
  /** the connected account's twin with a long ledger: how many postings, and the balance they add up to */
  ledgerHeavyId: string;
  ledgerPostings: number;
  ledgerBalance: Record<string, number>;
  /** financial report windows over the long ledger (whose postings are spread over the year before the seed): its
   * last day and its last year, with what the year's postings add up to per bucket, summed from the postings */
  reportDay: { from: string; to: string };
  reportYear: { from: string; to: string; entries: number; buckets: Record<string, number> };
  /** stats series windows (UTC dates) over the connected account's payments: its last day, and the year holding
   * every payment with their total (each payment is 10.00) */
  statsDay: { from: string; to: string };
  statsYear: { from: string; to: string; total: number; count: number };
}

const PAYMENT_ROWS = Number(process.env.BENCH_PAYMENT_ROWS ?? 1_000_000);
const LEDGER_POSTINGS = Number(process.env.BENCH_LEDGER_POSTINGS ?? 1_000_000);
const BUCKETS = ['available', 'pending', 'in_transit'];
const YEAR_SECONDS = 365 * 86_400;

/** A million payments in one statement: spread evenly over the 364 days before now (a year-long stats series reads
 * them all), newest first in the list order. Their collection goes into the stats rollups by the insert trigger. */
async function seedPayments(db: Knex, accountId: string, buyerId: string, rows: number): Promise<string> {
  const spacing = (YEAR_SECONDS - 86_400) / rows;
  await db.raw(`insert into payments (id, account_id, user_id, status, billing_reason, currency, subtotal, total, usd_total, created_at, updated_at)
    select 'pay_bench' || lpad(n::text, 10, '0'), ?, ?, 'succeeded', 'one_time', 'usd', 1000, 1000, 1000,
      date_trunc('milliseconds', now() - make_interval(secs => n * ?::float8)), date_trunc('milliseconds', now() - make_interval(secs => n * ?::float8))
    from generate_series(1, ?) as n`, [accountId, buyerId, spacing, spacing, rows]);
  await db.raw('analyze payments');
  const deep = await db('payments').where({ account_id: accountId }).orderBy([{ column: 'created_at', order: 'asc' }, { column: 'id', order: 'asc' }])
    .offset(20).first('id', 'created_at');
  return encodeCursor(deep.created_at, deep.id);
}


/**
 * A million postings in one statement: balanced entries of two postings each, money moving from the processor's
 * clearing into a bucket (the buckets in turn), as the sixty postings of the connected account do, spread evenly
 * over the year before `now` (a financial report's window reads them by time). The deferred check that every entry
 * sums to zero runs at its commit. Returns the balance they add up to, summed from the postings themselves (not
 * from ledger_balances, which the view reads), and the same per bucket over the year window [now - 365 days, now).
 */
async function seedLedger(db: Knex, accountId: string, postings: number, now: string) {
  const ledger = await ledgerOf(db, accountId);
  const entries = Math.floor(postings / 2);
  await db.raw(`insert into ledger_postings (entry_id, ledger_id, bucket, currency, amount, created_at)
    select 'le_bench' || lpad(e::text, 10, '0'), ?, case when side = 1 then (array['available', 'pending', 'in_transit'])[e % 3 + 1] else 'processor_clearing' end,
      'usd', case when side = 1 then 1 else -1 end * (100 + e % 900),
      date_trunc('milliseconds', ?::timestamptz - make_interval(secs => e * ?::float8 / ?))
    from generate_series(1, ?) as e, generate_series(1, 2) as side`, [ledger, now, YEAR_SECONDS, entries, entries]);
  await db.raw('analyze ledger_postings');
  await db.raw('analyze ledger_daily_totals');
  const { rows } = await db.raw(`select bucket, sum(amount) as amount from ledger_postings where ledger_id = ? and currency = 'usd'
    group by bucket`, [ledger]);
  const balance = Object.fromEntries(BUCKETS.map((b) => [b, Number(rows.find((r: { bucket: string }) => r.bucket === b)?.amount ?? 0)]));
  const yearFrom = new Date(Date.parse(now) - YEAR_SECONDS * 1000).toISOString();
  const { rows: year } = await db.raw(`select bucket, sum(amount) as amount, count(distinct entry_id) as entries from ledger_postings
    where ledger_id = ? and created_at >= ? and created_at < ? and bucket <> 'processor_clearing' group by bucket`, [ledger, yearFrom, now]);
  return {
    balance,
    year: { from: yearFrom, to: now, entries: year.reduce((n: number, r: { entries: string }) => n + Number(r.entries), 0),
      buckets: Object.fromEntries(year.map((r: { bucket: string; amount: string }) => [r.bucket, Number(r.amount)])) },
  };
}

/** A connected account of the platform as the view needs it: lifetime volume, a paid reward, 60 postings. */
async function connectedAccount(trx: Knex, platformId: string, title: string, externalId: string): Promise<string> {
  const connected = await insertAccount(trx, {
    title, email: 'shop@example.com', country: 'GB', parentId: platformId, metadata: { external_id: externalId },
  });
  await trx('accounts').where({ id: connected.id }).update({ lifetime_volume_usd: 2_500_000 });
  // 60 postings in 30 balanced entries: each moves money from the processor's clearing into a bucket.
  const ledger = await ledgerOf(trx, connected.id);
  await trx('ledger_postings').insert(Array.from({ length: 30 }, (_, i) => {
    const entry = newId('le_');
    return [
      { entry_id: entry, ledger_id: ledger, bucket: BUCKETS[i % 3], currency: 'usd', amount: 1_000 + i },
      { entry_id: entry, ledger_id: ledger, bucket: 'processor_clearing', currency: 'usd', amount: -(1_000 + i) },
    ];
  }).flat());
  await trx('reward_payouts').insert({ account_id: connected.id, milestone_id: 'rwd_10k', status: 'paid', paid_at: trx.fn.now() });
  return connected.id;
}

export async function seed(db: Knex): Promise<Fixture> {
  const f = await db.transaction(async (trx) => {
    const platform = await insertAccount(trx, { title: 'Bench Platform', email: 'platform@example.com', country: 'US' });
    const connectedId = await connectedAccount(trx, platform.id, 'Bench Connected Shop', 'shop-1');
    const ledgerHeavyId = await connectedAccount(trx, platform.id, 'Bench Long Ledger Shop', 'shop-2');
    const key = await issueApiKey(trx, { accountId: platform.id, name: 'bench', role: 'admin' });
    const productId = newId('prod_');
    await trx('products').insert({ id: productId, account_id: connectedId, title: 'Bench course' });
    const planId = newId('plan_');
    await trx('plans').insert({ id: planId, account_id: connectedId, product_id: productId, plan_type: 'one_time', initial_price: 900, renewal_price: 900 });
    const buyer = await insertUser(trx, { username: 'bench_buyer', email: 'buyer@example.com', name: 'Bench Buyer' });
    const memberId = newId('mber_');
    await trx('members').insert({ id: memberId, account_id: connectedId, user_id: buyer.id });
    const paymentMethodId = newId('payt_');
    await trx('payment_methods').insert({
      id: paymentMethodId, account_id: connectedId, user_id: buyer.id, member_id: memberId, type: 'card', card_brand: 'visa',
      last4: '4242', exp_month: 12, exp_year: 2030, fingerprint: 'f'.repeat(64), test_behaviour: 'succeeds',
    });
    const payoutMethodId = newId('potk_');
    await trx('payout_methods').insert({ id: payoutMethodId, account_id: connectedId, supported_payout_method_id: 'podst_us_ach', nickname: 'Bench bank',
      is_default: true, destination_currency: 'usd', destination_number: '000123456789', routing_number: '110000000' });
    // A shop paying out at volume has passed KYC: an approved identity verification (handlers/payouts/kyc-gate.ts).
    await trx('verifications').insert({ id: newId('verf_'), account_id: connectedId, purpose: 'identity', kind: 'business', status: 'approved',
      requested_information: JSON.stringify([]), reviewed_at: trx.fn.now() });
    const ledger = await ledgerOf(trx, connectedId);
    await postEntry(trx, newId('le_'), 'usd', [{ ledger, bucket: 'processor_clearing', amount: -1e13 }, { ledger, bucket: 'available', amount: 1e13 }]);
    return { platformId: platform.id, connectedId, ledgerHeavyId, apiKey: key.secret, planId, memberId, paymentMethodId, payoutMethodId, buyerId: buyer.id };
  });
  const { buyerId, ...fixture } = f;
  const deepCursor = await seedPayments(db, f.connectedId, buyerId, PAYMENT_ROWS);
  const now = new Date().toISOString();
  const ledger = await seedLedger(db, f.ledgerHeavyId, LEDGER_POSTINGS, now);
  return {
    ...fixture, paymentRows: PAYMENT_ROWS, deepCursor, paymentId: `pay_bench${String(Math.ceil(PAYMENT_ROWS / 2)).padStart(10, '0')}`,
    ledgerPostings: Math.floor(LEDGER_POSTINGS / 2) * 2, ledgerBalance: ledger.balance,
    reportDay: { from: new Date(Date.parse(now) - 86_400_000).toISOString(), to: now }, reportYear: ledger.year,
    statsDay: { from: now.slice(0, 10), to: now.slice(0, 10) },
    statsYear: { from: new Date(Date.parse(now) - YEAR_SECONDS * 1000).toISOString().slice(0, 10), to: now.slice(0, 10), total: PAYMENT_ROWS * 1000, count: PAYMENT_ROWS },
  };
}
