// The metric catalogue (GET /stats): what spec/areas/stats.yaml describes in words, as the handlers need it. The
// database side (which rows feed which metric) is migrations/310_stat_rollups.ts, keyed by the same names; a new
// metric is a new migration's triggers and a line here.

/** The catalogue: metric -> whether its values are money (per currency) or counts (currency ''). */
export const STAT_METRICS = {
  gross_revenue: 'money', net_revenue: 'money', refunds: 'money', disputes: 'money',
  new_members: 'count', churned_members: 'count', active_memberships: 'count',
} as const;

export type MetricKey = keyof typeof STAT_METRICS;

const DESCRIPTIONS: Record<MetricKey, [name: string, description: string]> = {
  gross_revenue: ['Gross revenue', 'Payment totals when payments are collected (at settlement).'],
  net_revenue: ['Net revenue', 'What the account keeps: totals less fees, less refunds when they succeed, less a dispute\'s amount and fee when it opens, plus its amount when it is won or prevented.'],
  refunds: ['Refunds', 'Refunded amounts, when refunds succeed; count is the refunds.'],
  disputes: ['Disputes', 'Disputed amounts, when disputes open; count is the disputes.'],
  new_members: ['New members', 'Users joining the account, for the first time or again.'],
  churned_members: ['Churned members', 'Members leaving: their last access-granting membership ended.'],
  active_memberships: ['Active memberships', 'Memberships granting access (trialing, active, past_due) at the end of each period.'],
};

export const isMetric = (key: string): key is MetricKey => Object.hasOwn(STAT_METRICS, key);
export const isMoney = (key: MetricKey): boolean => STAT_METRICS[key] === 'money';
/** Metrics whose value is a level at each period's end rather than what happened within it. */
export const isLevel = (key: MetricKey): boolean => key === 'active_memberships';

export const catalogue = () => (Object.keys(STAT_METRICS) as MetricKey[]).map((key) => ({
  key,
  name: DESCRIPTIONS[key][0],
  description: DESCRIPTIONS[key][1],
  unit: isMoney(key) ? 'currency' as const : 'count' as const,
  properties: isMoney(key) ? ['currency'] : [],
}));
