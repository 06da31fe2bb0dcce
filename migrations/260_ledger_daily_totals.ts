// Financial reports (GET /financial_reports) read a window of a ledger's history. Summing postings per request would
// cost what the window holds (a year of a busy account: a million rows), so the database keeps daily totals itself:
// every INSERT into ledger_postings adds its postings to ledger_daily_totals (one row per ledger, UTC day, currency
// and row type) in the same statement, after the balance upsert. A window then sums whole days from these rows and
// only its partial first and last days from the postings, by the (ledger_id, created_at) index added here.
//
// Row types: ledger_row_types is THE mapping from an entry to its report row type, by the entry id's prefix
// (`pay_`), its step (the text after ':', '' for none, '*' for any) and a variant (the rail's delivery type for
// payouts, '' otherwise; '*' for any); the most specific line wins, and an entry no line names is `other`.
// ledger_row_types_of() applies it to a set of entry ids, for the trigger and for the reports' partial days alike.
// A new kind of entry is one line here (in a later migration: an insert into ledger_row_types). Changing the type of
// entries already posted needs ledger_daily_totals re-derived (the back-fill below, run again).
import type { Knex } from 'knex';

/** The buckets a report shows: what the account holds (available, pending, in_transit, held) and the fees it paid. */
export const REPORT_BUCKETS = ['available', 'pending', 'in_transit', 'held', 'fees'] as const;

/** [prefix, step, variant, row type]. Deposits, swaps and card transactions are built elsewhere with these prefixes. */
export const ROW_TYPES: [string, string, string, string][] = [
  ['pay_', 'settled', '*', 'payment'],
  ['pay_', 'cleared', '*', 'funds_cleared'],
  ['rfnd_', '', '*', 'refund'],
  ['wdrl_', 'requested', '*', 'payout_requested'],
  ['wdrl_', 'released', '*', 'payout_released'],
  ['wdrl_', 'completed', '*', 'payout'],
  ['wdrl_', 'reversed', '*', 'payout_reversed'],
  // A stablecoin payout (a payout on a crypto rail) leaves the trading account; its reversal is the offset.
  ['wdrl_', 'completed', 'crypto', 'trading_account_withdrawal'],
  ['wdrl_', 'reversed', 'crypto', 'trading_account_withdrawal_offset'],
  ['xfer_', '', '*', 'transfer'],
  ['xfer_', 'returned', '*', 'transfer_returned'],
  // A crypto deposit credited to the balance (cdep_...:credited), and a credited deposit taken back.
  ['cdep_', 'credited', '*', 'trading_account_deposit'],
  ['cdep_', 'reversed', '*', 'trading_account_deposit_offset'],
  ['swap_', '*', '*', 'swap'],
  ['citx_', '*', '*', 'card_transaction'],
  // Money moved from the business balance to the cards balance (POST /card_top_ups, or auto top-up at clearing).
  ['ctop_', '*', '*', 'card_top_up'],
  // Entries made by hand (funding, corrections; the test fixtures and the benchmark's seed).
  ['le_', '*', '*', 'adjustment'],
];

// classified() and REPORT_BUCKETS are kept here as they were when this migration ran: a migration stays frozen. The
// reports' own copy, which must group the same way, is handlers/financial_reports/classified-postings.ts.
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

/** The balance upsert of migrations/200_ledgers.ts, in key order (concurrent batches lock balance rows in one
 * order), then the day totals' upsert, in key order too. */
const applyPostings = (withTotals: boolean) => `
  create or replace function ledger_apply_postings() returns trigger language plpgsql as $$
  declare overdrawn record;
  begin
    with moved as (
      insert into ledger_balances as b (ledger_id, currency, bucket, amount)
        select ledger_id, currency, bucket, sum(amount) from new_postings group by ledger_id, currency, bucket
        order by ledger_id, currency, bucket
        on conflict (ledger_id, currency, bucket)
        do update set amount = b.amount + excluded.amount, updated_at = date_trunc('milliseconds', now())
        returning b.ledger_id, b.currency, b.bucket, b.amount)
    select * into overdrawn from moved
      where amount < 0 and bucket in ('available', 'in_transit', 'held') limit 1;
    if found then
      raise exception 'balance % % % would go below zero (%)', overdrawn.ledger_id, overdrawn.currency, overdrawn.bucket, overdrawn.amount
        using errcode = 'check_violation', constraint = 'ledger_balances_floor';
    end if;
    ${withTotals ? `insert into ledger_daily_totals as d (ledger_id, day, currency, row_type, entries, ${REPORT_BUCKETS.join(', ')})
      ${classified('new_postings', 'ledger_id, ')}
      order by 1, 2, 3, 4
      on conflict (ledger_id, day, currency, row_type) do update set entries = d.entries + excluded.entries,
        ${REPORT_BUCKETS.map((b) => `${b} = d.${b} + excluded.${b}`).join(', ')};` : ''}
    return null;
  end $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ledger_row_types', (t) => {
    t.text('prefix').notNullable();
    t.text('step').notNullable();
    t.text('variant').notNullable();
    t.text('row_type').notNullable();
    t.primary(['prefix', 'step', 'variant']);
  });
  await knex('ledger_row_types').insert(ROW_TYPES.map(([prefix, step, variant, row_type]) => ({ prefix, step, variant, row_type })));

  // Set-based: one pass over the ids; a payout's variant is its rail's delivery type (three primary-key reads).
  await knex.raw(`
    create function ledger_row_types_of(entry_ids text[]) returns table (entry_id text, row_type text)
    language sql stable as $$
      with e as (
        select id, coalesce(substring(id from '^[a-z]+_'), '') as prefix, coalesce(substring(id from ':(.*)$'), '') as step,
          split_part(id, ':', 1) as resource
        from unnest(entry_ids) as id),
      v as (
        select e.*, coalesce(s.delivery_type, '') as variant from e
          left join payouts p on e.prefix = 'wdrl_' and p.id = e.resource
          left join payout_methods m on m.id = p.payout_method_id
          left join supported_payout_methods s on s.id = m.supported_payout_method_id)
      select v.id, coalesce((select t.row_type from ledger_row_types t
          where t.prefix = v.prefix and t.step in (v.step, '*') and t.variant in (v.variant, '*')
          order by t.step = '*', t.variant = '*' limit 1), 'other')
      from v
    $$`);

  await knex.schema.createTable('ledger_daily_totals', (t) => {
    t.text('ledger_id').notNullable().references('ledger_accounts.id');
    t.date('day').notNullable(); // UTC
    t.text('currency').notNullable();
    t.text('row_type').notNullable();
    t.bigInteger('entries').notNullable();
    for (const b of REPORT_BUCKETS) t.bigInteger(b).notNullable();
    t.primary(['ledger_id', 'day', 'currency', 'row_type']);
  });
  // A report's partial first and last days read their postings by time.
  await knex.raw('create index ledger_postings_ledger_created on ledger_postings (ledger_id, created_at)');

  await knex.raw(applyPostings(true));

  // The totals of the postings already made.
  await knex.raw(`insert into ledger_daily_totals (ledger_id, day, currency, row_type, entries, ${REPORT_BUCKETS.join(', ')})
    ${classified('ledger_postings', 'ledger_id, ')}`);

  // Like balances, the totals move only with postings.
  await knex.raw(`create function ledger_daily_totals_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'ledger daily totals move only with ledger postings' using errcode = 'restrict_violation';
    end $$`);
  await knex.raw(`create trigger ledger_daily_totals_follow_postings before insert or update or delete on ledger_daily_totals
    for each row when (pg_trigger_depth() = 0) execute function ledger_daily_totals_refuse_change()`);
}

export async function down(knex: Knex): Promise<void> {
  // The balance upsert as migrations/200_ledgers.ts left it (with its key order, which is harmless).
  await knex.raw(applyPostings(false));
  await knex.raw('drop index ledger_postings_ledger_created');
  await knex.schema.dropTableIfExists('ledger_daily_totals');
  await knex.raw('drop function ledger_daily_totals_refuse_change()');
  await knex.raw('drop function ledger_row_types_of(text[])');
  await knex.schema.dropTableIfExists('ledger_row_types');
}
