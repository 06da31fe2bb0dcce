// The rows of a financial report: an account's ledgers summed per UTC day, currency and row type over a window
// [from, to). Whole days come from ledger_daily_totals (kept by the posting trigger, migrations/260), the partial
// first and last days from the postings themselves, read by (ledger_id, created_at) and classified by the same
// database function the trigger uses. A window's cost follows its days, never the account's history.
import type { Knex } from 'knex';
import type { FinancialReportCurrency, FinancialReportRow } from '../../generated/types.js';
import { invalid } from '../../runtime/errors.js';
import { parseInstant } from '../../runtime/instant.js';
import { money } from '../../runtime/money.js';
import { query } from '../../runtime/request-db.js';
// The same grouping and classification the posting trigger files postings with.
import { classified } from './classified-postings.js';

const DAY_MS = 86_400_000;
const BUCKETS = ['available', 'pending', 'in_transit', 'held', 'fees'] as const;
type Bucket = (typeof BUCKETS)[number];

export interface DayRow extends Record<Bucket, string> {
  day: string;
  currency: string;
  row_type: string;
  entries: string;
}

/** The parts of a window: the whole UTC days [wholeFrom, wholeTo) and the instants around them, [from, wholeFrom)
 * and [wholeTo, to) (empty ranges when the window starts or ends at midnight; the whole window when it holds no
 * whole day). */
export interface WindowParts {
  wholeFrom: string;
  wholeTo: string;
  partial: [string, string][];
}

/** A validated timestamp input in milliseconds (runtime/instant.ts reads every offset form the validator lets in). */
export const instant = (text: string): number => parseInstant(text) ?? Number.NaN;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const iso = (ms: number) => new Date(ms).toISOString();

export function windowParts(fromText: string, toText: string): WindowParts {
  const from = instant(fromText);
  const to = instant(toText);
  if (!(to > from)) throw invalid('to must be after from', 'to');
  const wholeFrom = Math.ceil(from / DAY_MS) * DAY_MS;
  const wholeTo = Math.floor(to / DAY_MS) * DAY_MS;
  if (wholeFrom >= wholeTo) return { wholeFrom: isoDay(wholeFrom), wholeTo: isoDay(wholeFrom), partial: [[iso(from), iso(to)], [iso(to), iso(to)]] };
  return { wholeFrom: isoDay(wholeFrom), wholeTo: isoDay(wholeTo), partial: [[iso(from), iso(wholeFrom)], [iso(wholeTo), iso(to)]] };
}

/**
 * The window's rows per UTC day, currency and row type ($1 account, $2/$3 whole days, $4-$7 the partial ranges,
 * $8 a currency or null). An entry is counted once per ledger it moved, as the daily totals count it.
 */
const ROWS = `
  ledgers as (select id from ledger_accounts where account_id = $1),
  whole as (
    select d.day, d.currency, d.row_type, d.entries, ${BUCKETS.map((b) => `d.${b}`).join(', ')}
    from ledgers l join ledger_daily_totals d on d.ledger_id = l.id and d.day >= $2::date and d.day < $3::date
    where $8::text is null or d.currency = $8),
  postings as (
    select p.* from (
      select p.* from ledgers l join ledger_postings p on p.ledger_id = l.id and p.created_at >= $4::timestamptz and p.created_at < $5::timestamptz
      union all
      select p.* from ledgers l join ledger_postings p on p.ledger_id = l.id and p.created_at >= $6::timestamptz and p.created_at < $7::timestamptz) p
    where $8::text is null or p.currency = $8),
  part as (${classified('postings', '')}),
  rows as (select * from whole union all select * from part)`;

const TOTALS = BUCKETS.map((b) => `sum(${b})::text as ${b}`).join(', ');

/** The window's totals per currency and row type. */
export const REPORT_SQL = `with ${ROWS}
  select ''::text as day, currency, row_type, sum(entries)::text as entries, ${TOTALS} from rows group by currency, row_type`;

export function windowValues(accountId: string, parts: WindowParts, currency: string | undefined): unknown[] {
  return [accountId, parts.wholeFrom, parts.wholeTo, ...parts.partial.flat(), currency ?? null];
}

export const reportRows = (db: Knex, values: unknown[]): Promise<DayRow[]> => query<DayRow>(db, REPORT_SQL, values);

/** The rows of the first `limit` days with entries in `order`, strictly between the days $9 and $10 when given. */
const dayRowsSql = (order: 'asc' | 'desc') => `with ${ROWS},
  days as (select day from rows where ($9::date is null or day > $9::date) and ($10::date is null or day < $10::date)
    group by day order by day ${order} limit $11)
  select to_char(r.day, 'YYYY-MM-DD') as day, r.currency, r.row_type, sum(r.entries)::text as entries, ${TOTALS}
  from rows r where r.day in (select day from days) group by r.day, r.currency, r.row_type order by r.day ${order}`;
const DAY_ROWS = { asc: dayRowsSql('asc'), desc: dayRowsSql('desc') };

export const dayRows = (db: Knex, values: unknown[], order: 'asc' | 'desc'): Promise<DayRow[]> => query<DayRow>(db, DAY_ROWS[order], values);

/** Rows (of one report or one day) -> one breakdown per currency, USD first then by code, rows by type. */
export function currenciesOf(rows: DayRow[]): FinancialReportCurrency[] {
  const codes = [...new Set(rows.map((r) => r.currency))].sort((a, b) => (a === 'usd' ? -1 : b === 'usd' ? 1 : a < b ? -1 : 1));
  return codes.map((currency) => {
    const of = rows.filter((r) => r.currency === currency).sort((a, b) => (a.row_type < b.row_type ? -1 : 1));
    const reportRows: FinancialReportRow[] = of.map((r) => {
      const amount = (b: Bucket) => Number(r[b]);
      return {
        type: r.row_type,
        count: Number(r.entries),
        net: money(amount('available') + amount('pending') + amount('in_transit') + amount('held'), currency),
        available: money(amount('available'), currency),
        pending: money(amount('pending'), currency),
        in_transit: money(amount('in_transit'), currency),
        held: money(amount('held'), currency),
        fees: money(amount('fees'), currency),
      };
    });
    return { currency, net: money(reportRows.reduce((sum, r) => sum + r.net.amount, 0), currency), rows: reportRows };
  });
}
