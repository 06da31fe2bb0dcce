// The stats window of list and retrieve (stats_from, stats_to) and its read from the delivery rollups: whole UTC
// days from ad_delivery_days, the ragged edges (fewer than 24 hours each side) from ad_delivery_hours. The cost
// follows the window and the rows asked for, never how long the ads have run.
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';
import { clockNow } from '../../runtime/clock.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;

export interface Window { from: Date; to: Date }
export interface Totals { impressions: number; clicks: number; results: number; spend: number; result_value: number }
export const ZERO: Totals = { impressions: 0, clicks: 0, results: 0, spend: 0, result_value: 0 };

/** Hours starting in [from, to) count; default the 30 days before now; at most 366 days. */
export function statsWindow(query: { stats_from?: string; stats_to?: string }, now = clockNow()): Window {
  const to = query.stats_to ? new Date(query.stats_to) : now;
  const from = query.stats_from ? new Date(query.stats_from) : new Date(to.getTime() - DEFAULT_DAYS * DAY);
  if (to <= from) throw invalid('stats_to must be after stats_from', 'stats_to');
  if (to.getTime() - from.getTime() > MAX_DAYS * DAY) throw invalid(`A stats window spans at most ${MAX_DAYS} days`, 'stats_from');
  return { from, to };
}

const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;
const ceilTo = (t: number, unit: number) => Math.ceil(t / unit) * unit;

/** The window as day rows [days.from, days.to) and hour ranges; hour rows start on the hour, so from rounds up. */
export function plan(w: Window): { days: [Date, Date] | null; hours: [Date, Date][] } {
  const from = ceilTo(w.from.getTime(), HOUR);
  const to = ceilTo(w.to.getTime(), HOUR);
  const dayFrom = ceilTo(from, DAY);
  const dayTo = floorTo(to, DAY);
  if (dayFrom >= dayTo) return { days: null, hours: from < to ? [[new Date(from), new Date(to)]] : [] };
  const hours: [Date, Date][] = [];
  if (from < dayFrom) hours.push([new Date(from), new Date(dayFrom)]);
  if (dayTo < to) hours.push([new Date(dayTo), new Date(to)]);
  return { days: [new Date(dayFrom), new Date(dayTo)], hours };
}

export type Key = 'ad_campaign_id' | 'ad_group_id' | 'ad_id' | 'account_id';

const SUMS = 'sum(impressions)::bigint as impressions, sum(clicks)::bigint as clicks, sum(results)::bigint as results, '
  + 'sum(spend)::bigint as spend, sum(result_value)::bigint as result_value';

/** A select of the window's totals per key (campaign, group, ad or account) of `ids`, as (k, impressions, clicks,
 * results, spend, result_value), and its bindings: for a statement to join, so figures come with what else it reads.
 * With `by`, the rows of those keys are totalled per `by` instead (null: one total, under ''). */
export function totalsSelect(key: Key, ids: string[], w: Window, by: Key | null = key): [string, Knex.RawBinding[]] {
  const { days, hours } = plan(w);
  const parts: string[] = [];
  const values: Knex.RawBinding[] = [];
  const cols = 'impressions, clicks, results, spend, result_value';
  if (days) {
    parts.push(`select ${by ?? "''"} as k, ${cols} from ad_delivery_days where ${key} = any(?::text[]) and day >= ? and day < ?`);
    values.push(ids, days[0], days[1]);
  }
  for (const [a, b] of hours) {
    parts.push(`select ${by ?? "''"} as k, ${cols} from ad_delivery_hours where ${key} = any(?::text[]) and hour >= ? and hour < ?`);
    values.push(ids, a, b);
  }
  // A window inside one hour holds no whole hour: nothing counts.
  if (parts.length === 0) return ['select null::text as k, 0 as impressions, 0 as clicks, 0 as results, 0 as spend, 0 as result_value where false', []];
  return [`select k, ${SUMS} from (${parts.join(' union all ')}) x group by k`, values];
}

/** Totals per key over the window (totalsSelect's, run alone); with `by`, per `by`. */
export async function totalsBy(db: Knex, key: Key, ids: string[], w: Window, by: Key | null = key): Promise<Map<string, Totals>> {
  if (ids.length === 0) return new Map();
  const [sql, values] = totalsSelect(key, ids, w, by);
  const { rows } = await db.raw(sql, values);
  return new Map(rows.map((r: { k: string } & Record<keyof Totals, string>) => [r.k, totalsOf(r)]));
}

/** The totals of a row of a statement that joined totalsSelect (null figures: nothing delivered in the window). */
export function totalsOf(r: Partial<Record<keyof Totals, string | number | null>>): Totals {
  return {
    impressions: Number(r.impressions ?? 0), clicks: Number(r.clicks ?? 0), results: Number(r.results ?? 0),
    spend: Number(r.spend ?? 0), result_value: Number(r.result_value ?? 0),
  };
}

/** Value over spend to two decimals, computed on integers (floor of hundredths). A ratio, not money: the final
 * division by 100 only makes the JSON number (the double nearest those hundredths, whose text is them). */
export function roas(t: Totals): number {
  if (t.spend === 0) return 0;
  return Number((BigInt(t.result_value) * 100n) / BigInt(t.spend)) / 100;
}

export function statFields(t: Totals | undefined) {
  const v = t ?? ZERO;
  return { spend: v.spend, impressions: v.impressions, clicks: v.clicks, results: v.results, return_on_ad_spend: roas(v) };
}
