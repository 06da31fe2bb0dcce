// The retired ad report (GET /ad_reports at pins before 2026-08-21), read from the delivery rollups like the stats:
// its window, its scope (the account, or its campaigns, groups or ads) and its figures.
import type { Knex } from 'knex';
import type { AdReportBucket, AdReportSummary } from '../../generated/types.js';
import { invalid, notFound } from '../../runtime/errors.js';
import { roas, type Key, type Totals, type Window } from './stats-window.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MAX_DAYS = 366;
const MAX_HOURLY_BUCKETS = 1000;

export type Granularity = AdReportBucket['granularity'];

/** from..to (both inclusive) widened to whole UTC hours, or whole UTC days for a daily, weekly or monthly report. */
export function reportWindow(from: string, to: string, granularity: Granularity | undefined): Window {
  const unit = granularity && granularity !== 'hourly' ? DAY : HOUR;
  const start = Math.floor(new Date(from).getTime() / unit) * unit;
  const end = (Math.floor(new Date(to).getTime() / unit) + 1) * unit;
  if (new Date(to) < new Date(from)) throw invalid('to must not be before from', 'to');
  if (end - start > MAX_DAYS * DAY) throw invalid(`A report spans at most ${MAX_DAYS} days`, 'from');
  if (granularity === 'hourly' && (end - start) / HOUR > MAX_HOURLY_BUCKETS) {
    throw invalid(`At most ${MAX_HOURLY_BUCKETS} hourly buckets: use daily or narrow the window`, 'granularity');
  }
  return { from: new Date(start), to: new Date(end) };
}

const SCOPES = [
  { param: 'ad_campaign_ids', table: 'ad_campaigns', key: 'ad_campaign_id', noun: 'ad campaign' },
  { param: 'ad_group_ids', table: 'ad_groups', key: 'ad_group_id', noun: 'ad group' },
  { param: 'ad_ids', table: 'ads', key: 'ad_id', noun: 'ad' },
] as const;

export interface Scope { key: Key; ids: string[] }

/** The rows a report sums: the account's, or those of the named campaigns, groups or ads (one kind), each the
 * account's (else a 404 naming the parameter; a deleted one keeps its history). */
export async function reportScope(db: Knex, accountId: string, query: Partial<Record<(typeof SCOPES)[number]['param'], string[]>>): Promise<Scope> {
  const named = SCOPES.filter((s) => query[s.param] !== undefined);
  if (named.length > 1) throw invalid(`Scope the report by one of ${named.map((s) => s.param).join(' or ')}, not both`, named[1]!.param);
  const scope = named[0];
  if (!scope) return { key: 'account_id', ids: [accountId] };
  const ids = [...new Set(query[scope.param]!)];
  const found = new Set<string>(await db(scope.table).where({ account_id: accountId }).whereIn('id', ids).pluck('id'));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw notFound(scope.noun, missing, scope.param);
  return { key: scope.key, ids };
}

const BUCKET: Record<Granularity, { table: string; column: string; start: string }> = {
  hourly: { table: 'ad_delivery_hours', column: 'hour', start: 'hour' },
  daily: { table: 'ad_delivery_days', column: 'day', start: 'day' },
  weekly: { table: 'ad_delivery_days', column: 'day', start: "date_trunc('week', day at time zone 'UTC') at time zone 'UTC'" },
  monthly: { table: 'ad_delivery_days', column: 'day', start: "date_trunc('month', day at time zone 'UTC') at time zone 'UTC'" },
};

/** One bucket per UTC hour, day, ISO week or month of the window that delivered, oldest first. */
export async function reportBuckets(db: Knex, scope: Scope, w: Window, granularity: Granularity, currency: string): Promise<AdReportBucket[]> {
  const b = BUCKET[granularity];
  const { rows } = await db.raw(`select ${b.start} as t, sum(impressions)::bigint as impressions, sum(clicks)::bigint as clicks,
      sum(results)::bigint as results, sum(spend)::bigint as spend
    from ${b.table} where ${scope.key} = any(?::text[]) and ${b.column} >= ? and ${b.column} < ? group by t order by t`,
  [scope.ids, w.from, w.to]);
  // t: the bucket's start, a timestamptz (ISO 8601 text, runtime/db.ts); the sums are int8 (numbers)
  return (rows as { t: string; impressions: number; clicks: number; results: number; spend: number }[]).map((r) => {
    const start = new Date(r.t);
    return {
      bucket_start: start.toISOString(), granularity, stat_date: start.toISOString().slice(0, 10),
      stat_hour: granularity === 'hourly' ? start.getUTCHours() : null,
      impressions: Number(r.impressions), clicks: Number(r.clicks), result_count: Number(r.results), spend: Number(r.spend),
      spend_currency: currency,
    };
  });
}

/** Spend over a count in minor units, rounded down, on integers; null without any. */
const per = (spend: number, count: number, scale = 1n): number | null =>
  (count === 0 ? null : Number((BigInt(spend) * scale) / BigInt(count)));

export function reportSummary(t: Totals, currency: string): AdReportSummary {
  // click_through_rate is a ratio of counts, not money, shown to four decimals: a float is fine for display.
  return {
    impressions: t.impressions, clicks: t.clicks, result_count: t.results, spend: t.spend, spend_currency: currency,
    click_through_rate: t.impressions === 0 ? 0 : Math.round((t.clicks * 10_000) / t.impressions) / 10_000,
    cost_per_click: per(t.spend, t.clicks),
    cost_per_mille: per(t.spend, t.impressions, 1000n),
    cost_per_result: per(t.spend, t.results),
    return_on_ad_spend: t.spend === 0 ? null : roas(t),
  };
}
