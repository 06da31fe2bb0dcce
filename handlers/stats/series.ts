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

// One statement, one row: the periods' bounds, the big grain's rows of the window's range and the corrections for
// bounds off the grain; statSeries sums the rows into periods.
//
// The bounds (`ends`): the local starts from the period holding `from` up to the one holding the instant before `to`
// (a date `to` is its whole day: the next local midnight), and one more, the last period's end, all in UTC. Two more
// than the cap are generated, so an over-long window is refused without generating it whole.
//
// Each period [b(k), b(k+1)) is the big grain's rows (days; hours for an hourly series) of [big(b(k)), big(b(k+1))),
// less G(b(k)), plus G(b(k+1)), where G(t) is what the big grain's row holding t counts before t: its hour rows before
// hour(t) and the quarter-hour rows of [hour(t), t). A big row [r, r + grain) is in that range of period k exactly
// when its last instant is in [b(k), b(k+1)). G is read only for bounds off the grain (`corrections`): none for a
// daily series in UTC. The range's ends are scalar subqueries so that they bound the index scan: compared with the
// bounds in a join filter, they were tested on every day row the account ever had (365 read for a day's window,
// buffers 372 against 4). Instants leave as whole epoch seconds (every bound and bucket is a whole second: zone
// offsets are), in JSON: PostgreSQL writes and JavaScript reads a number for less than a timestamp's text, and the
// rows are not sorted (no aggregate orders them; each finds its period by a binary search). A window whose `to` is
// not after its `from` has no periods (`ordered` false).
//
// A year by day in UTC took 2.0 ms (statement and reading its rows, bench/seed's data) when PostgreSQL summed the
// rows by period (width_bucket, a hash aggregate, a join to the bounds and a sort) and returned a row per period as
// timestamptz; this takes 0.95 ms. Before that, a self-join of the bounds with both of G's lateral reads set up on
// every bound ran in 1.8 ms of EXPLAIN ANALYZE against the summing version's 1.0.
const SERIES = `
  with b as (
    select case when $4::boolean then $5::text::date::timestamp else $5::text::timestamptz at time zone $8::text end as lf,
           case when $6::boolean then $7::text::date::timestamp + interval '1 day' else $7::text::timestamptz at time zone $8::text end as lt),
  ends as (select s.i, s.s at time zone $8::text as t from b,
      generate_series(date_trunc($9::text, b.lf), b.lt - interval '1 microsecond' + $10::interval, $10::interval) with ordinality as s(s, i)
    limit ${MAX_POINTS + 2}),
  g as (select e.i, coalesce(h.v, 0) + coalesce(q.v, 0) as v, coalesce(h.c, 0) + coalesce(q.c, 0) as c
    from (select ends.i, ends.t as b, ${bin('$11::interval', 'ends.t')} as big, ${bin(`'1 hour'::interval`, 'ends.t')} as hour from ends
      where ends.t <> ${bin('$11::interval', 'ends.t')}) e
    cross join lateral (select sum(value) as v, sum(count) as c from stat_rollups r
      where e.hour > e.big and ${OF} and r.grain = 'h' and r.bucket >= e.big and r.bucket < e.hour) h
    cross join lateral (select sum(value) as v, sum(count) as c from stat_rollups r
      where e.b > e.hour and ${OF} and r.grain = 'q' and r.bucket >= e.hour and r.bucket < e.b) q)
  select (select b.lt > b.lf from b) as ordered,
    (select json_agg(date_part('epoch', t)::bigint order by i) from ends) as bounds,
    (select json_build_array(json_agg(date_part('epoch', r.bucket)::bigint), json_agg(r.value), json_agg(r.count)) from stat_rollups r
      where ${OF} and r.grain = $12 and r.bucket >= (select ${bin('$11::interval', 'min(t)')} from ends)
        and r.bucket < (select ${bin('$11::interval', 'max(t)')} from ends)) as rows,
    (select json_agg(json_build_array(i, v, c)) from g) as corrections`;

interface SeriesRow {
  ordered: boolean;
  /** epoch seconds, ascending: each period's start, then the last one's end */
  bounds: number[] | null;
  /** the big grain's rows: their buckets (epoch seconds), values and counts, in no order */
  rows: [number[] | null, number[] | null, number[] | null];
  /** [bound's place from 1, G's value, G's count] for each bound off the grain */
  corrections: [number, number, number][] | null;
}

/** Each period's value and count: every big row added to the period holding its last instant, then G moved across
 * each bound off the grain. */
function periodSums(row: SeriesRow, grainMs: number): { starts: number[]; values: number[]; counts: number[] } {
  const starts = (row.bounds ?? []).map((seconds) => seconds * 1000);
  const n = starts.length - 1;
  const values = new Array<number>(Math.max(n, 0)).fill(0);
  const counts = new Array<number>(Math.max(n, 0)).fill(0);
  const [buckets, rowValues, rowCounts] = row.rows;
  for (let r = 0; r < (buckets?.length ?? 0); r++) {
    const end = buckets![r] * 1000 + grainMs; // the row's last instant is just before it
    // the last bound before `end`: the row is that period's when the period is one
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] < end) lo = mid;
      else hi = mid - 1;
    }
    if (lo < n && starts[lo] < end) {
      values[lo] += rowValues![r];
      counts[lo] += rowCounts![r];
    }
  }
  for (const [place, value, count] of row.corrections ?? []) {
    const k = place - 1; // the period starting at that bound loses G, the one ending there gains it
    if (k < n) {
      values[k] -= value;
      counts[k] -= count;
    }
    if (k >= 1) {
      values[k - 1] += value;
      counts[k - 1] += count;
    }
  }
  return { starts, values, counts };
}

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
  const [row] = await inZone(() => query<SeriesRow>(db, SERIES,
    [q.account_id, metric, currency, from.date, from.value, to.date, to.value, zone, q.interval, `1 ${q.interval}`, width, grain]));
  const { starts, values, counts } = periodSums(row, grain === 'h' ? 3_600_000 : 86_400_000);
  if (!row.ordered || starts.length < 2) throw invalid('to must be after from', 'to');
  if (starts.length > MAX_POINTS + 1) throw invalid(`The window holds more than ${MAX_POINTS} periods of a ${q.interval}; choose a wider interval or a shorter window`, 'interval');
  const start = new Date(starts[0]).toISOString();
  const end = new Date(starts[starts.length - 1]).toISOString();
  let level = isLevel(metric) ? Number((await query(db, LEVEL_BEFORE, [q.account_id, metric, currency, start]))[0].value) : 0;
  const points = values.map((value, k) => {
    const timestamp = k === 0 ? start : new Date(starts[k]).toISOString();
    if (isLevel(metric)) {
      level += value;
      return { timestamp, value: level, count: level };
    }
    return { timestamp, value, count: isMoney(metric) ? counts[k] : value };
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
