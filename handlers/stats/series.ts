// A metric's series over a window, from stat_rollups (migrations/310): the window widens to whole periods of the
// interval in the time zone, whose bounds are always quarter-hours in UTC, so every period is a sum of rollup rows
// and no source row (payment, refund, ...) is read. Cost: the window's periods and its quarter-hours with activity.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { ApiError, invalid, notFound } from '../../runtime/errors.js';
import { isInstant, parseInstant } from '../../runtime/instant.js';
import { canonicalTimezone } from '../account_preferences/regional-settings.js';
import { loadPreferences } from '../account_preferences/preferences-store.js';
import { isLevel, isMetric, isMoney } from './catalogue.js';

type Interval = 'hour' | 'day' | 'week' | 'month' | 'year';
export interface SeriesQuery { account_id: string; from: string; to: string; interval: Interval; time_zone?: string; currency?: string }

const MAX_POINTS = 1000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** An instant as the API writes it (ISO 8601 in UTC, milliseconds). */
const ISO = (ts: string) => `to_char((${ts}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A window bound as SQL sees it: a local date (its midnight in the zone) or an instant. */
function bound(text: string, param: 'from' | 'to'): { date: boolean; value: string } {
  if (DATE.test(text)) {
    if (!isInstant(`${text}T00:00:00Z`)) throw invalid(`${param} '${text}' is not a date`, param);
    return { date: true, value: text };
  }
  const ms = parseInstant(text);
  if (ms === null) throw invalid(`${param} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with an offset`, param);
  return { date: false, value: new Date(ms).toISOString() };
}

// The periods: local starts from the period holding `from` up to the one holding the instant before `to` (a date
// `to` is its whole day: the next local midnight), each with its UTC start and end. One more than the cap is read
// so an over-long window is refused without generating it whole.
const PERIODS = `
  with b as (
    select case when $1::boolean then $2::text::date::timestamp else $2::text::timestamptz at time zone $5::text end as lf,
           case when $3::boolean then $4::text::date::timestamp + interval '1 day' else $4::text::timestamptz at time zone $5::text end as lt)
  select s::text as local_start, ${ISO('s at time zone $5::text')} as start_at, ${ISO('(s + $7::interval) at time zone $5::text')} as end_at,
    b.lt > b.lf as ordered
  from b, generate_series(date_trunc($6::text, b.lf), b.lt - interval '1 microsecond', $7::interval) s
  limit ${MAX_POINTS + 1}`;

const SUMS = `
  select date_trunc($5::text, bucket at time zone $6::text)::text as local_start, sum(value)::bigint as value, sum(count)::bigint as count
  from stat_rollups where account_id = $1 and metric = $2 and currency = $3 and bucket >= $4 and bucket < $7
  group by 1`;

// A level's value before the window: the level now less every move since the window began.
const LEVEL_BEFORE = `
  select coalesce((select value from stat_levels where account_id = $1 and metric = $2), 0)
    - coalesce((select sum(value) from stat_rollups where account_id = $1 and metric = $2 and currency = '' and bucket >= $3), 0) as value`;

export async function statSeries(db: Knex, metric: string, q: SeriesQuery) {
  if (!isMetric(metric)) throw notFound('metric', metric, 'metric');
  const zone = canonicalTimezone(q.time_zone ?? (await loadPreferences(db, q.account_id)).ads_scheduling_timezone, 'time_zone');
  const from = bound(q.from, 'from');
  const to = bound(q.to, 'to');
  const step = `1 ${q.interval}`;
  const periods = await inZone(() => query<{ local_start: string; start_at: string; end_at: string; ordered: boolean }>(db, PERIODS, [from.date, from.value, to.date, to.value, zone, q.interval, step]));
  if (!periods.length || !periods[0].ordered) throw invalid('to must be after from', 'to');
  if (periods.length > MAX_POINTS) throw invalid(`The window holds more than ${MAX_POINTS} periods of a ${q.interval}; choose a wider interval or a shorter window`, 'interval');
  const start: string = periods[0].start_at;
  const end: string = periods[periods.length - 1].end_at;
  const currency = isMoney(metric) ? q.currency ?? 'usd' : '';
  const sums = await query<{ local_start: string; value: string; count: string }>(db, SUMS, [q.account_id, metric, currency, start, q.interval, zone, end]);
  const byStart = new Map(sums.map((r) => [r.local_start, r]));
  let level = isLevel(metric) ? Number((await query(db, LEVEL_BEFORE, [q.account_id, metric, start]))[0].value) : 0;
  const points = periods.map((p) => {
    const sum = byStart.get(p.local_start);
    const value = Number(sum?.value ?? 0);
    if (isLevel(metric)) {
      level += value;
      return { timestamp: p.start_at, value: level, count: level };
    }
    return { timestamp: p.start_at, value, count: isMoney(metric) ? Number(sum?.count ?? 0) : value };
  });
  return {
    metric,
    unit: isMoney(metric) ? 'currency' as const : 'count' as const,
    currency: isMoney(metric) ? currency : null,
    interval: q.interval,
    time_zone: zone,
    from: start,
    to: end,
    points,
  };
}

/** A zone ICU knows and PostgreSQL does not (or a date out of PostgreSQL's range) is the caller's input, not a 500. */
async function inZone<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === '22023') throw invalid('time_zone is not a time zone the database knows', 'time_zone');
    if (code === '22008' || code === '22007') throw new ApiError(400, 'invalid_request', 'The window is out of range', 'from');
    throw e;
  }
}
