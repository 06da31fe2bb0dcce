// Metric time series (GET /stats/time_series/{metric}) read rollups, never the history behind them: statement-level
// triggers on payments, refunds, disputes, members and memberships add what each statement changed to stat_rollups
// in the same transaction, like ledger_daily_totals follows ledger postings (migration 260), at three grains: the
// UTC quarter-hour (q), hour (h) and day (d) holding it. Series are bucketed in any time zone, and every zone's
// offset today is a whole number of quarter-hours (+05:45, +08:45, +12:45), so a local period [s, e) is always
//   the day rows of [day(s), day(e))  -  G(s)  +  G(e),   G(t) = the hour rows of [day(t), hour(t)) + the quarter rows of [hour(t), t)
// (handlers/stats/series.ts): a year by day in New York reads 366 day rows and 5 hour rows per boundary, in UTC
// the day rows alone, whatever the number of payments behind them.
// active_memberships is a level, not a flow: its rollups hold +1/-1 moves and stat_levels the current count, so a
// window's starting level is the current one less the moves since (cost: the rollups from the window to now).
//
// The triggers only insert: a key (account, metric, currency, grain, bucket) may have several rows, which reads sum,
// and the compact_totals job folds each key's new rows into one (both tables are totals tables: migrations/support/
// totals.ts). An upsert here would lock the key's row from the triggering statement to the commit, in whatever order
// the handler's statements run, and deadlock with the ledger's balance rows (a payment settling locks balances and
// then its rollups, a refund settling the other way round: the money property saw it at once).
//
// Metric definitions (spec/areas/stats.yaml repeats them for callers):
//   gross_revenue    + payment total when a payment is collected (succeeded), at settlement_time_at
//   net_revenue      + total - fees at collection; - a refund's amount when it succeeds; - a dispute's amount and fee
//                    when it opens; + its amount when it is won or prevented (what the ledger moves)
//   refunds          + a refund's amount when it succeeds
//   disputes         + a dispute's amount when it opens
//   new_members      + 1 when a user joins an account (first time, or rejoining)
//   churned_members  + 1 when a member leaves
//   active_memberships  memberships granting access (trialing, active, past_due)
import type { Knex } from 'knex';
import { registerTotals, unregisterTotals } from './support/totals.js';

/** The catalogue: metric -> whether its values are money (per currency) or counts (currency ''). A frozen copy of the
 * metrics as they were when this migration ran (a migration never changes); the handlers' own is STAT_METRICS in
 * handlers/stats/catalogue.ts (handlers never import migrations). */
export const STAT_METRICS = {
  gross_revenue: 'money', net_revenue: 'money', refunds: 'money', disputes: 'money',
  new_members: 'count', churned_members: 'count', active_memberships: 'count',
} as const;

const COLLECTED = `('succeeded', 'refunded', 'partially_refunded')`;
const LIVE = `('trialing', 'active', 'past_due')`;
/** The grains, and the width each rollup row covers. */
export const GRAINS = { q: '15 minutes', h: '1 hour', d: '1 day' } as const;
const NOW = `date_trunc('milliseconds', now())`;

/** Adds a set of contributions (account_id, metric, currency, at, value, count) to the rollups: new rows, one per key. */
const ADD = (contributions: string) => `
  insert into stat_rollups (account_id, metric, currency, grain, bucket, value, count)
    select account_id, metric, currency, g.grain, date_bin(g.width::interval, at, timestamptz '2000-01-01 00:00:00+00'), sum(value)::bigint, sum(count)::bigint
    from (${contributions}) c cross join (values ${Object.entries(GRAINS).map(([g, w]) => `('${g}', '${w}')`).join(', ')}) as g(grain, width)
    group by 1, 2, 3, 4, 5;`;

/** What a set of newly collected payments adds (rows: account_id, currency, total, fee_amount, at). */
const PAYMENT_CONTRIBUTIONS = (rows: string) => `
  select account_id, 'gross_revenue' as metric, currency, at, total as value, 1 as count from ${rows}
  union all select account_id, 'net_revenue', currency, at, total - fee_amount, 1 from ${rows}`;

/** The active_memberships level: moves into the rollups, the sum into stat_levels (rows: account_id, at, delta). */
const MOVE_LEVEL = (rows: string) => `
  ${ADD(`select account_id, 'active_memberships' as metric, '' as currency, at, delta as value, 0 as count from ${rows} where delta <> 0`)}
  insert into stat_levels (account_id, metric, value)
    select account_id, 'active_memberships', sum(delta) from ${rows} where delta <> 0 group by 1;`;

const TRIGGERS: [table: string, event: 'insert' | 'update', body: string][] = [
  ['payments', 'insert', ADD(PAYMENT_CONTRIBUTIONS(`(select account_id, currency, total, fee_amount,
      coalesce(settlement_time_at, created_at) as at from new_rows where status in ${COLLECTED}) p`))],
  ['payments', 'update', ADD(PAYMENT_CONTRIBUTIONS(`(select n.account_id, n.currency, n.total, n.fee_amount,
      coalesce(n.settlement_time_at, ${NOW}) as at from new_rows n join old_rows o on o.id = n.id
      where n.status in ${COLLECTED} and o.status not in ${COLLECTED}) p`))],
  ['refunds', 'insert', ADD(`select account_id, 'refunds' as metric, currency, updated_at as at, amount as value, 1 as count
      from new_rows where status = 'succeeded'
    union all select account_id, 'net_revenue', currency, updated_at, -amount, 0 from new_rows where status = 'succeeded'`)],
  ['refunds', 'update', ADD(`select n.account_id, m.metric, n.currency, ${NOW} as at, m.sign * n.amount as value, m.n as count
      from new_rows n join old_rows o on o.id = n.id
      cross join (values ('refunds', 1, 1), ('net_revenue', -1, 0)) as m(metric, sign, n)
      where n.status = 'succeeded' and o.status <> 'succeeded'`)],
  ['disputes', 'insert', ADD(`select account_id, 'disputes' as metric, currency, created_at as at, amount as value, 1 as count from new_rows
    union all select account_id, 'net_revenue', currency, created_at, -(amount + fee), 0 from new_rows
    union all select account_id, 'net_revenue', currency, coalesce(resolved_at, created_at), amount, 0 from new_rows where status in ('won', 'prevented')`)],
  ['disputes', 'update', ADD(`select n.account_id, 'net_revenue' as metric, n.currency, ${NOW} as at, n.amount as value, 0 as count
      from new_rows n join old_rows o on o.id = n.id
      where n.status in ('won', 'prevented') and o.status not in ('won', 'prevented')`)],
  ['members', 'insert', ADD(`select account_id, 'new_members' as metric, '' as currency, joined_at as at, 1 as value, 1 as count from new_rows where status = 'joined'
    union all select account_id, 'churned_members', '', left_at, 1, 1 from new_rows where status = 'left' and left_at is not null`)],
  ['members', 'update', ADD(`select n.account_id, case n.status when 'joined' then 'new_members' else 'churned_members' end as metric,
      '' as currency, ${NOW} as at, 1 as value, 1 as count
      from new_rows n join old_rows o on o.id = n.id
      where n.status <> o.status and n.status in ('joined', 'left')`)],
  ['memberships', 'insert', MOVE_LEVEL(`(select account_id, created_at as at, 1 as delta from new_rows where status in ${LIVE}) m`)],
  ['memberships', 'update', MOVE_LEVEL(`(select n.account_id, ${NOW} as at,
      (n.status in ${LIVE})::int - (o.status in ${LIVE})::int as delta
      from new_rows n join old_rows o on o.id = n.id) m`)],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('stat_rollups', (t) => {
    t.text('account_id').notNullable().references('accounts.id');
    t.text('metric').notNullable();
    t.text('currency').notNullable(); // '' for count metrics
    t.text('grain').notNullable(); // q, h or d (GRAINS)
    t.timestamp('bucket', { useTz: true }).notNullable(); // the UTC quarter-hour, hour or day it starts
    t.bigInteger('value').notNullable();
    t.bigInteger('count').notNullable();
  });
  await registerTotals(knex, { name: 'stat_rollups', keys: ['account_id', 'metric', 'currency', 'grain', 'bucket'], sums: ['value', 'count'] });
  await knex.schema.createTable('stat_levels', (t) => {
    t.text('account_id').notNullable().references('accounts.id');
    t.text('metric').notNullable();
    t.bigInteger('value').notNullable();
  });
  await registerTotals(knex, { name: 'stat_levels', keys: ['account_id', 'metric'], sums: ['value'] });

  for (const [table, event, body] of TRIGGERS) {
    const name = `stat_rollups_${table}_${event}`;
    await knex.raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`);
    const refs = event === 'insert' ? 'new table as new_rows' : 'old table as old_rows new table as new_rows';
    await knex.raw(`create trigger ${name} after ${event} on ${table} referencing ${refs} for each statement execute function ${name}()`);
  }

  // What the data already written adds up to (times as close as the rows keep them: a refund at its last update,
  // a resolved dispute's return at resolved_at, a membership's moves at its creation and, once ended, its last update).
  await knex.raw(ADD(PAYMENT_CONTRIBUTIONS(`(select account_id, currency, total, fee_amount, coalesce(settlement_time_at, created_at) as at
    from payments where status in ${COLLECTED}) p`)));
  await knex.raw(ADD(`select account_id, 'refunds' as metric, currency, updated_at as at, amount as value, 1 as count from refunds where status = 'succeeded'
    union all select account_id, 'net_revenue', currency, updated_at, -amount, 0 from refunds where status = 'succeeded'`));
  await knex.raw(ADD(`select account_id, 'disputes' as metric, currency, created_at as at, amount as value, 1 as count from disputes
    union all select account_id, 'net_revenue', currency, created_at, -(amount + fee), 0 from disputes
    union all select account_id, 'net_revenue', currency, coalesce(resolved_at, updated_at), amount, 0 from disputes where status in ('won', 'prevented')`));
  await knex.raw(ADD(`select account_id, 'new_members' as metric, '' as currency, joined_at as at, 1 as value, 1 as count from members
    union all select account_id, 'churned_members', '', left_at, 1, 1 from members where left_at is not null`));
  await knex.raw(MOVE_LEVEL(`(select account_id, created_at as at, 1 as delta from memberships
    union all select account_id, updated_at, -1 from memberships where status not in ${LIVE}) m`));
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, event] of TRIGGERS) {
    await knex.raw(`drop trigger stat_rollups_${table}_${event} on ${table}`);
    await knex.raw(`drop function stat_rollups_${table}_${event}()`);
  }
  await unregisterTotals(knex, 'stat_levels');
  await unregisterTotals(knex, 'stat_rollups');
  await knex.schema.dropTableIfExists('stat_levels');
  await knex.schema.dropTableIfExists('stat_rollups');
}
