// Written by hand, not declared plain: a report summed over delivery rollup rows, not a stored row.
import type { Handler } from '../../generated/handler.js';
import { invalid, notFound } from '../../runtime/errors.js';
import type { Key } from './stats-window.js';
import { loadPreferences } from '../account_preferences/index.js';

const HOUR = 3_600_000;
const UNIT = { hour: HOUR, day: 24 * HOUR } as const;
const MAX_POINTS = 1000;
const SOURCES: Record<string, { key: Key; table: string; noun: string }> = {
  ad_campaigns: { key: 'ad_campaign_id', table: 'ad_campaigns', noun: 'ad campaign' },
  ad_groups: { key: 'ad_group_id', table: 'ad_groups', noun: 'ad group' },
  ads: { key: 'ad_id', table: 'ads', noun: 'ad' },
};

/** GET /stats/ad_delivery: one point per UTC hour or day, read from that grain's rollup rows only. Written, not plain:
 * a report summed over rollup rows, not a stored row. */
export const retrieveAdDeliveryStats: Handler<'retrieveAdDeliveryStats'> = async ({ query }, ctx) => {
  const unit = UNIT[query.interval];
  const from = Math.floor(new Date(query.from).getTime() / unit) * unit;
  const to = Math.ceil(new Date(query.to).getTime() / unit) * unit;
  if (to <= from) throw invalid('to must be after from', 'to');
  if ((to - from) / unit > MAX_POINTS) throw invalid(`At most ${MAX_POINTS} points: widen interval or narrow the window`, 'interval');
  let key: Key = 'account_id';
  let id = query.account_id;
  if (query.source) {
    const [, kind, sourceId] = query.source.split('/');
    const s = SOURCES[kind!]!;
    const owned = await ctx.db(s.table).where({ id: sourceId, account_id: query.account_id }).first('id');
    if (!owned) throw notFound(s.noun, sourceId!, 'source');
    key = s.key;
    id = sourceId!;
  }
  const [table, column] = query.interval === 'hour' ? ['ad_delivery_hours', 'hour'] : ['ad_delivery_days', 'day'];
  const { rows } = await ctx.db.raw(`select ${column} as at, sum(spend)::bigint as spend, sum(impressions)::bigint as impressions,
      sum(clicks)::bigint as clicks, sum(results)::bigint as results
    from ${table} where ${key} = ? and ${column} >= ? and ${column} < ? group by ${column}`, [id, new Date(from), new Date(to)]);
  const byTime = new Map<number, any>(rows.map((r: any) => [new Date(r.at).getTime(), r]));
  const points = [];
  const total = { spend: 0, impressions: 0, clicks: 0, results: 0 };
  for (let t = from; t < to; t += unit) {
    const r = byTime.get(t);
    const p = { timestamp: new Date(t).toISOString(), spend: Number(r?.spend ?? 0), impressions: Number(r?.impressions ?? 0), clicks: Number(r?.clicks ?? 0), results: Number(r?.results ?? 0) };
    for (const k of ['spend', 'impressions', 'clicks', 'results'] as const) total[k] += p[k];
    points.push(p);
  }
  const currency = (await loadPreferences(ctx.db, query.account_id)).ads_reporting_currency;
  return { data: {
    source: query.source ?? `/accounts/${query.account_id}`, currency, interval: query.interval,
    from: new Date(from).toISOString(), to: new Date(to).toISOString(), ...total, points,
  } };
};
