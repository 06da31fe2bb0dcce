// Proves the ledger's invariants over the whole database: every materialised balance equals the sum of its
// postings, every entry's postings sum to zero, and the daily totals reports read (migrations/260) equal their
// postings per ledger, UTC day and currency. The database enforces both as postings are written
// (migrations/130_ledger_balances.ts); this re-derives them from scratch, for tests and `npm run cli -- verify-ledger`.
import type { Knex } from 'knex';

export interface BalanceMismatch {
  ledger_id: string;
  currency: string;
  bucket: string;
  /** the materialised balance (0 when the row is missing) */
  balance: number;
  /** the sum of the postings */
  postings: number;
}

export interface LedgerReport {
  balances: number;
  entries: number;
  mismatches: BalanceMismatch[];
  unbalancedEntries: { entry_id: string; sum: number }[];
  /** days whose totals (entries and each report bucket, over every row type) differ from their postings */
  dailyTotalMismatches: { ledger_id: string; day: string; currency: string }[];
}

const REPORT_BUCKETS = ['available', 'pending', 'in_transit', 'held', 'fees'];

export async function verifyLedger(db: Knex): Promise<LedgerReport> {
  const mismatches = await db.raw(`
    with sums as (select ledger_id, currency, bucket, sum(amount) as total from ledger_postings group by 1, 2, 3)
    select coalesce(b.ledger_id, s.ledger_id) as ledger_id, coalesce(b.currency, s.currency) as currency,
      coalesce(b.bucket, s.bucket) as bucket, coalesce(b.amount, 0) as balance, coalesce(s.total, 0) as postings
    from ledger_balances b full join sums s using (ledger_id, currency, bucket)
    where coalesce(b.amount, 0) <> coalesce(s.total, 0)
    order by 1, 2, 3`);
  const unbalanced = await db.raw(`select entry_id, sum(amount) as sum from ledger_postings group by entry_id
    having sum(amount) <> 0 order by entry_id`);
  const columns = ['entries', ...REPORT_BUCKETS];
  const days = await db.raw(`
    with t as (select ledger_id, day, currency, ${columns.map((c) => `sum(${c}) as ${c}`).join(', ')} from ledger_daily_totals group by 1, 2, 3),
    p as (select ledger_id, (created_at at time zone 'UTC')::date as day, currency, count(distinct entry_id) as entries,
      ${REPORT_BUCKETS.map((b) => `coalesce(sum(amount) filter (where bucket = '${b}'), 0) as ${b}`).join(', ')}
      from ledger_postings group by 1, 2, 3)
    select coalesce(t.ledger_id, p.ledger_id) as ledger_id, to_char(coalesce(t.day, p.day), 'YYYY-MM-DD') as day, coalesce(t.currency, p.currency) as currency
    from t full join p using (ledger_id, day, currency)
    where ${columns.map((c) => `coalesce(t.${c}, 0) <> coalesce(p.${c}, 0)`).join(' or ')}
    order by 1, 2, 3`);
  const [{ balances }] = (await db.raw('select count(*)::int as balances from ledger_balances')).rows;
  const [{ entries }] = (await db.raw('select count(distinct entry_id)::int as entries from ledger_postings')).rows;
  return {
    balances,
    entries,
    mismatches: mismatches.rows.map((r: BalanceMismatch) => ({ ...r, balance: Number(r.balance), postings: Number(r.postings) })),
    unbalancedEntries: unbalanced.rows.map((r: { entry_id: string; sum: string }) => ({ entry_id: r.entry_id, sum: Number(r.sum) })),
    dailyTotalMismatches: days.rows,
  };
}
