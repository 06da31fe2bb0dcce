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
/** An instant as the API writes it (ISO 8601 in UTC, milliseconds). */
const ISO = (ts: string) => `to_char((${ts}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

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

// One statement: the periods, and each one's sum from the rollups (migrations/310).
//
// The periods: local starts from the period holding `from` up to the one holding the instant before `to` (a date
// `to` is its whole day: the next local midnight). One more than the cap is generated so an over-long window is
// refused without generating it whole. Their bounds in UTC (`ends`): each period's start, and the last one's end.
//
// Each period [b(k), b(k+1)): the big grain's rows (days; hours for an hourly series) of [big(b(k)), big(b(k+1))),
// less G at its start, plus G at its end, where G(t) is what the big grain's row holding t counts before t: its hour
// rows before hour(t) and the quarter-hour rows of [hour(t), t). The big grain's rows are read in one range scan and
// summed by period (width_bucket over the periods' big bounds); G reads only where t is not on the grain (its
// one-time filters skip the scan: in UTC a daily series reads no hour rows). The range's ends are scalar subqueries
// so that they bound the index scan: compared with the array's elements in a join filter, they were tested on every
// day row the account ever had (365 read for a day's window, buffers 372 against 4).
//
// In two statements (the periods, then their sums given the bounds as an array) a year's series cost twice what it
// needed: 366 periods sent to the server and 367 bounds sent back, each period formatted three times where once will
// do (`npm run bench`, GET /stats/time_series by window).
const SERIES = `
  with b as (
    select case when $4::boolean then $5::text::date::timestamp else $5::text::timestamptz at time zone $8::text end as lf,
           case when $6::boolean then $7::text::date::timestamp + interval '1 day' else $7::text::timestamptz at time zone $8::text end as lt),
  p as (select s.i, s.s from b, generate_series(date_trunc($9::text, b.lf), b.lt - interval '1 microsecond', $10::interval)
      with ordinality as s(s, i)
    limit ${MAX_POINTS + 1}),
  ends as (select p.i, p.s at time zone $8::text as t from p
    union all
    select p.i + 1, (p.s + $10::interval) at time zone $8::text from p where p.i = (select max(i) from p)),
  bd as (select ends.t as b, ends.i, ${bin('$11::interval', 'ends.t')} as big, ${bin(`'1 hour'::interval`, 'ends.t')} as hour from ends),
  g as (select bd.i, bd.b, coalesce(h.v, 0) + coalesce(q.v, 0) as v, coalesce(h.c, 0) + coalesce(q.c, 0) as c from bd
    cross join lateral (select sum(value) as v, sum(count) as c from stat_rollups r
      where bd.hour > bd.big and ${OF} and r.grain = 'h' and r.bucket >= bd.big and r.bucket < bd.hour) h
    cross join lateral (select sum(value) as v, sum(count) as c from stat_rollups r
      where bd.b > bd.hour and ${OF} and r.grain = 'q' and r.bucket >= bd.hour and r.bucket < bd.b) q),
  bigs as (select array_agg(big order by i) as a from bd),
  w as (select width_bucket(r.bucket, bigs.a) as i, sum(value) as v, sum(count) as c
    from bigs, stat_rollups r
    where ${OF} and r.grain = $12 and r.bucket >= (select a[1] from bigs) and r.bucket < (select a[array_length(a, 1)] from bigs)
    group by 1)
  select ${ISO('g0.b')} as start_at, (coalesce(w.v, 0) - g0.v + g1.v)::bigint as value, (coalesce(w.c, 0) - g0.c + g1.c)::bigint as count,
    (select ${ISO('max(ends.t)')} from ends) as end_at, (select b.lt > b.lf from b) as ordered
  from g g0 join g g1 on g1.i = g0.i + 1
  left join w on w.i = g0.i
  order by g0.i`;

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
  const periods = await inZone(() => query<{ start_at: string; value: string; count: string; end_at: string; ordered: boolean }>(db, SERIES,
    [q.account_id, metric, currency, from.date, from.value, to.date, to.value, zone, q.interval, `1 ${q.interval}`, width, grain]));
  if (!periods.length || !periods[0].ordered) throw invalid('to must be after from', 'to');
  if (periods.length > MAX_POINTS) throw invalid(`The window holds more than ${MAX_POINTS} periods of a ${q.interval}; choose a wider interval or a shorter window`, 'interval');
  const start: string = periods[0].start_at;
  const end: string = periods[0].end_at;
  let level = isLevel(metric) ? Number((await query(db, LEVEL_BEFORE, [q.account_id, metric, currency, start]))[0].value) : 0;
  const points = periods.map((p) => {
    const value = Number(p.value);
    if (isLevel(metric)) {
      level += value;
      return { timestamp: p.start_at, value: level, count: level };
    }
    return { timestamp: p.start_at, value, count: isMoney(metric) ? Number(p.count) : value };
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
