// GET /stats/events from event_rollups (migrations/400_people_events.ts), never from the events: the window
// [s, e) (from and to widened to UTC quarter-hours) is the day rows of [day(s), day(e)), less G(s), plus G(e),
// where G(t) is what t's day row counts before t: its hour rows before hour(t) and the quarter-hour rows of
// [hour(t), t) (the decomposition of handlers/stats/series.ts). Cost: the window's days plus two edges.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { parseInstant } from '../../runtime/instant.js';
import { query } from '../../runtime/request-db.js';
import { money } from '../../runtime/money.js';

const QUARTER = 15 * 60 * 1000;
const ORIGIN = `timestamptz '2000-01-01 00:00:00+00'`;
const day = (t: string) => `date_bin('1 day', ${t}, ${ORIGIN})`;
const hour = (t: string) => `date_bin('1 hour', ${t}, ${ORIGIN})`;
const rows = (sign: string, grain: string, lo: string, hi: string) => `
  select event_name, currency, ${sign} * conversions as c, ${sign} * attributed as a, ${sign} * revenue as r from event_rollups
  where account_id = $1 and grain = '${grain}' and bucket >= ${lo} and bucket < ${hi} and ($4::text is null or event_name = $4)`;
const WINDOW = `
  select event_name, currency, sum(c)::bigint as conversions, sum(a)::bigint as attributed, sum(r)::bigint as revenue from (
    ${rows('1', 'd', day('$2::timestamptz'), day('$3::timestamptz'))}
    union all ${rows('-1', 'h', day('$2::timestamptz'), hour('$2::timestamptz'))}
    union all ${rows('-1', 'q', hour('$2::timestamptz'), '$2::timestamptz')}
    union all ${rows('1', 'h', day('$3::timestamptz'), hour('$3::timestamptz'))}
    union all ${rows('1', 'q', hour('$3::timestamptz'), '$3::timestamptz')}
  ) w group by 1, 2`;

interface Sum { event_name: string; currency: string; conversions: string; attributed: string; revenue: string }

/** GET /stats/events: per event name, conversions, those attributed to a payment, and those payments' totals in one currency.
 * Written, not plain: a report summed over rollup rows, not a stored row. */
export const retrieveEventStats: Handler<'retrieveEventStats'> = async ({ query: q }, ctx) => {
  const from = Math.floor(parseInstant(q.from)! / QUARTER) * QUARTER;
  const to = Math.ceil(parseInstant(q.to)! / QUARTER) * QUARTER;
  if (!(parseInstant(q.to)! > parseInstant(q.from)!)) throw invalid('to must be after from', 'to');
  const currency = q.currency ?? 'usd';
  const sums = await query<Sum>(ctx.db, WINDOW, [q.account_id, new Date(from).toISOString(), new Date(to).toISOString(), q.event_name ?? null]);
  const byName = new Map<string, { conversions: number; attributed: number; revenue: number }>();
  for (const s of sums) {
    const n = byName.get(s.event_name) ?? { conversions: 0, attributed: 0, revenue: 0 };
    n.conversions += Number(s.conversions);
    n.attributed += Number(s.attributed);
    if (s.currency === currency) n.revenue += Number(s.revenue);
    byName.set(s.event_name, n);
  }
  const events = [...byName].filter(([, n]) => n.conversions !== 0)
    .sort(([a, x], [b, y]) => y.conversions - x.conversions || (a < b ? -1 : a > b ? 1 : 0))
    .map(([event_name, n]) => ({ event_name, conversions: n.conversions, attributed_conversions: n.attributed, attributed_revenue: money(n.revenue, currency) }));
  const total = (f: (e: (typeof events)[number]) => number) => events.reduce((s, e) => s + f(e), 0);
  return {
    data: {
      account_id: q.account_id,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      currency,
      conversions: total((e) => e.conversions),
      attributed_conversions: total((e) => e.attributed_conversions),
      attributed_revenue: money(total((e) => e.attributed_revenue.amount), currency),
      events,
    },
  };
};
