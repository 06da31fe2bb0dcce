// The SQL that groups ledger postings into report rows: per (ledger,) UTC day, currency and row type. The posting
// trigger of migrations/260_ledger_daily_totals.ts files every posting into ledger_daily_totals with this same
// statement, and the report's partial days (report-rows.ts) must group exactly as it did. The migration keeps its own
// frozen copy (handlers never import migrations); changing this one means a new migration that re-creates
// ledger_apply_postings() with it and re-derives ledger_daily_totals.

/** The buckets a report shows: what the account holds (available, pending, in_transit, held) and the fees it paid. */
export const REPORT_BUCKETS = ['available', 'pending', 'in_transit', 'held', 'fees'] as const;

/**
 * Postings of `source` summed per (ledger,) UTC day, currency and row type. They are first grouped by what their
 * type depends on (the entry id's prefix and step, and the payout for wdrl_ entries), and one sample entry of each
 * group is classified: a batch of a million postings of one kind classifies one entry, not a million. An entry is
 * counted once per ledger it moved.
 */
export const classified = (source: string, ledger: string) => `
  with e as (
    select ledger_id, entry_id, currency, min(created_at) as created_at,
      ${REPORT_BUCKETS.map((b) => `coalesce(sum(amount) filter (where bucket = '${b}'), 0) as ${b}`).join(', ')}
    from ${source} group by ledger_id, entry_id, currency),
  g as (
    select ${ledger}(created_at at time zone 'UTC')::date as day, currency,
      left(entry_id, strpos(entry_id, '_')) as prefix, case when strpos(entry_id, ':') > 0 then substr(entry_id, strpos(entry_id, ':') + 1) else '' end as step,
      case when entry_id like 'wdrl\\_%' then split_part(entry_id, ':', 1) else '' end as resource,
      min(entry_id) as sample, count(*) as entries, ${REPORT_BUCKETS.map((b) => `sum(${b}) as ${b}`).join(', ')}
    from e group by ${ledger ? '1, 2, 3, 4, 5, 6' : '1, 2, 3, 4, 5'})
  select ${ledger}g.day, g.currency, t.row_type, sum(g.entries)::bigint, ${REPORT_BUCKETS.map((b) => `sum(g.${b})::bigint`).join(', ')}
  from g join ledger_row_types_of(array(select distinct sample from g)) t on t.entry_id = g.sample
  group by ${ledger}g.day, g.currency, t.row_type`;
