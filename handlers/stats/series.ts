// A metric's series over a window, from stat_rollups (migrations/310): the window widens to whole periods of the
// interval in the time zone, whose bounds are always quarter-hours in UTC, so every period is a sum of rollup rows
// and no source row (payment, refund, ...) is read. Cost: one range of day rows (hour rows for an hourly series) for
// the whole window and, per boundary off the grain, the hour and quarter-hour rows between its UTC day's start and it.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { ApiError, invalid, notFound } from '../../runtime/errors.js';
import { parseInstant } from '../../runtime/instant.js';
import { canonicalTimezone, loadPreferences } from '../account_preferences/index.js';
import { isLevel, isMetric, isMoney } from './catalogue.js';

type Interval = 'hour' | 'day' | 'week' | 'month' | 'year';
export interface SeriesQuery { account_id: string; from: string; to: string; interval: Interval; time_zone?: string; currency?: string }

const MAX_POINTS = 1000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Series cover these years: widening a window to whole periods in a zone never leaves the years 0001-9999. */
const FIRST_YEAR = 1970;
const LAST_YEAR = 9998;

/** A window bound as SQL sees it: a local date (its midnight in the zone) or an instant. */
function bound(text: string, param: 'from' | 'to'): { date: boolean; value: string } {
  const ms = DATE.test(text) ? parseInstant(`${text}T00:00:00Z`) : parseInstant(text);
  if (ms === null) {
    throw invalid(DATE.test(text) ? `${param} '${text}' is not a date` : `${param} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with an offset`, param);
  }
  const year = new Date(ms).getUTCFullYear();
  if (year < FIRST_YEAR || year > LAST_YEAR) throw invalid(`${param} must lie in the years ${FIRST_YEAR} to ${LAST_YEAR}`, param);
  return DATE.test(text) ? { date: true, value: text } : { date: false, value: new Date(ms).toISOString() };
}

const ORIGIN = `timestamptz '2000-01-01 00:00:00+00'`;
const bin = (width: string, t: string) => `date_bin(${width}, ${t}, ${ORIGIN})`;
const OF = `r.account_id = $1 and r.metric = $2 and r.currency = $3`;

// One statement: each period's bounds and its sum from the rollups (migrations/310).
//
// The bounds (`ends`): the local starts from the period holding `from` up to the one holding the instant before `to`
// (a date `to` is its whole day: the next local midnight), and one more, the last period's end, all in UTC. Two more
// than the cap are generated, so an over-long window is refused without generating it whole.
//
// Each period [b(k), b(k+1)) is the big grain's rows (days; hours for an hourly series) of [big(b(k)), big(b(k+1))),
// less G(b(k)), plus G(b(k+1)), where G(t) is what the big grain's row holding t counts before t: its hour rows before
// hour(t) and the quarter-hour rows of [hour(t), t). A big row [r, r + grain) is in that range of period k exactly
// when its last instant is in [b(k), b(k+1)), so the rows of the window's range are summed by period in one scan by
// width_bucket of that instant over the bounds. G is read only for bounds off the grain: none for a daily series in
// UTC, whose statement is then that scan and the periods. The range's ends are scalar subqueries so that they bound
// the index scan: compared with the array's elements in a join filter, they were tested on every day row the account
// ever had (365 read for a day's window, buffers 372 against 4). Bounds leave as timestamptz, which runtime/db.ts
// reads as ISO 8601 text: to_char on each of a year's 367 cost more than the rest of its row. A window whose `to` is
// not after its `from` has no rows.
//
// A year by day in UTC ran in 1.8 ms (median of EXPLAIN ANALYZE, bench/seed's data) as a self-join of the bounds
// with both of G's lateral reads set up on every bound and the row sums joined in; this runs in 1.0 ms.
const SERIES = `
  with b as (
    select case when $4::boolean then $5::text::date::timestamp else $5::text::timestamptz at time zone $8::text end as lf,
           case when $6::boolean then $7::text::date::timestamp + interval '1 day' else $7::text::timestamptz at time zone $8::text end as lt),
  ends as (select s.i, s.s at time zone $8::text as t from b,
      generate_series(date_trunc($9::text, b.lf), b.lt - interval '1 microsecond' + $10::interval, $10::interval) with ordinality as s(s, i)
    limit ${MAX_POINTS + 2}),
  bounds as (select array_agg(t order by i) as a from ends),
  g as (select e.i, coalesce(h.v, 0) + coalesce(q.v, 0) as v, coalesce(h.c, 0) + coalesce(q.c, 0) as c
    from (select ends.i, ends.t as b, ${bin('$11::interval', 'ends.t')} as big, ${bin(`'1 hour'::interval`, 'ends.t')} as hour from ends
      where ends.t <> ${bin('$11::interval', 'ends.t')}) e
    cross join lateral (select sum(value) as v, sum(count) as c from stat_rollups r
      where e.hour > e.big and ${OF} and r.grain = 'h' and r.bucket >= e.big and r.bucket < e.hour) h
    cross join lateral (select sum(value) as v, sum(count) as c from stat_rollups r
      where e.b > e.hour and ${OF} and r.grain = 'q' and r.bucket >= e.hour and r.bucket < e.b) q),
  sums as (select i, sum(v) as v, sum(c) as c from (
      select width_bucket(r.bucket + $11::interval - interval '1 microsecond', bounds.a) as i, r.value as v, r.count as c
        from bounds, stat_rollups r
        where ${OF} and r.grain = $12 and r.bucket >= (select ${bin('$11::interval', 'a[1]')} from bounds)
          and r.bucket < (select ${bin('$11::interval', 'a[array_length(a, 1)]')} from bounds)
      union all select i - 1, v, c from g
      union all select i, -v, -c from g) x
    group by i)
  select ends.t as at, coalesce(sums.v, 0)::bigint as value, coalesce(sums.c, 0)::bigint as count
  from ends left join sums on sums.i = ends.i
  where (select b.lt > b.lf from b)
  order by ends.i`;

// A level's value before the window: the level now less every move since the window began (the day rows from its
// day on, less what they hold before its start).
const LEVEL_BEFORE = `
  select coalesce((select sum(value) from stat_levels where account_id = $1 and metric = $2), 0)
    - coalesce((select sum(value) from stat_rollups r where ${OF} and r.grain = 'd' and r.bucket >= ${bin(`'1 day'::interval`, '$4::timestamptz')}), 0)
    + coalesce((select sum(value) from stat_rollups r where ${OF} and r.grain = 'h'
        and r.bucket >= ${bin(`'1 day'::interval`, '$4::timestamptz')} and r.bucket < ${bin(`'1 hour'::interval`, '$4::timestamptz')}), 0)
    + coalesce((select sum(value) from stat_rollups r where ${OF} and r.grain = 'q'
        and r.bucket >= ${bin(`'1 hour'::interval`, '$4::timestamptz')} and r.bucket < $4::timestamptz), 0) as value`;

export async function statSeries(db: Knex, metric: string, q: SeriesQuery) {
  if (!isMetric(metric)) throw notFound('metric', metric, 'metric');
  const zone = canonicalTimezone(q.time_zone ?? (await loadPreferences(db, q.account_id)).ads_scheduling_timezone, 'time_zone');
  const from = bound(q.from, 'from');
  const to = bound(q.to, 'to');
  const currency = isMoney(metric) ? q.currency ?? 'usd' : '';
  const [grain, width] = q.interval === 'hour' ? ['h', '1 hour'] : ['d', '1 day'];
  const rows = await inZone(() => query<{ at: string; value: number; count: number }>(db, SERIES,
    [q.account_id, metric, currency, from.date, from.value, to.date, to.value, zone, q.interval, `1 ${q.interval}`, width, grain]));
  if (rows.length < 2) throw invalid('to must be after from', 'to');
  if (rows.length > MAX_POINTS + 1) throw invalid(`The window holds more than ${MAX_POINTS} periods of a ${q.interval}; choose a wider interval or a shorter window`, 'interval');
  const periods = rows.slice(0, -1);
  const start = periods[0].at;
  const end = rows[rows.length - 1].at;
  let level = isLevel(metric) ? Number((await query(db, LEVEL_BEFORE, [q.account_id, metric, currency, start]))[0].value) : 0;
  const points = periods.map((p) => {
    if (isLevel(metric)) {
      level += p.value;
      return { timestamp: p.at, value: level, count: level };
    }
    return { timestamp: p.at, value: p.value, count: isMoney(metric) ? p.count : p.value };
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
