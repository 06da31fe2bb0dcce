// Written by hand, not declared plain: not a table's rows but delivery totals summed over a window of days, per
// campaign, ad group or ad.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import type { AdReportBreakdown } from '../../generated/types.js';
import { loadPreferences } from '../account_preferences/index.js';
import { totalsBy, ZERO, type Key } from './stats-window.js';
import { reportBuckets, reportScope, reportSummary, reportWindow } from './ad-report.js';

const LEVELS: Record<AdReportBreakdown['level'], { key: Key; table: string }> = {
  campaign: { key: 'ad_campaign_id', table: 'ad_campaigns' },
  ad_group: { key: 'ad_group_id', table: 'ad_groups' },
  ad: { key: 'ad_id', table: 'ads' },
};

/** GET /ad_reports (pins before 2026-08-21): the account's delivery over the window (ad-report.ts); the runtime
 * checked ads:read on company_id. */
export const listAdReports: Handler<'listAdReports'> = async ({ query }, ctx) => {
  const w = reportWindow(query.from, query.to, query.granularity);
  const currency = (await loadPreferences(ctx.db, query.company_id)).ads_reporting_currency;
  if (query.currency && query.currency !== currency) throw invalid(`The account reports ad spend in ${currency}; currency must be ${currency}`, 'currency');
  const scope = await reportScope(ctx.db, query.company_id, query);
  const summary = reportSummary((await totalsBy(ctx.db, scope.key, scope.ids, w, null)).get('') ?? ZERO, currency);
  const granularity = query.granularity ? await reportBuckets(ctx.db, scope, w, query.granularity, currency) : null;
  let breakdown: AdReportBreakdown[] | null = null;
  if (query.breakdown) {
    const level = LEVELS[query.breakdown];
    const totals = [...(await totalsBy(ctx.db, scope.key, scope.ids, w, level.key))]
      .sort(([a, x], [b, y]) => y.spend - x.spend || (a < b ? -1 : 1));
    const names = new Map<string, string | null>((await ctx.db(level.table).whereIn('id', totals.map(([id]) => id)).select('id', 'title'))
      .map((r: { id: string; title: string | null }) => [r.id, r.title]));
    breakdown = totals.map(([id, t]) => ({ id, level: query.breakdown!, name: names.get(id) ?? null, summary: reportSummary(t, currency) }));
  }
  return { summary, granularity, breakdown };
};
