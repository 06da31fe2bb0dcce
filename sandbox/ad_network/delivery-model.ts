// The simulated ad network's delivery model: what one campaign delivers in one hour, from its budget, its objective
// and its ad groups' audiences. Pure integer arithmetic on minor units, so a given campaign and hour always deliver
// the same figures (docs/sandbox/ad-network.md states the same numbers). Math.floor(a / b) here is
// integer division, exact: a and b are safe integers far below 2^52, and a correctly rounded quotient of such
// integers never rounds across an integer.
import type { AdHour, Audiences, Budget, Objective, Schedule } from '../../handlers/ads/index.js';

/** Price of 1000 impressions, in minor units. */
export const CPM: Record<Objective, number> = { awareness: 400, traffic: 800, engagement: 600, leads: 1200, sales: 1500 };
/** Clicks per 10,000 impressions. */
export const CTR_BP: Record<Objective, number> = { awareness: 50, traffic: 150, engagement: 100, leads: 100, sales: 120 };
/** A sale's value for return_on_ad_spend, in minor units; other results carry none. */
export const PURCHASE_VALUE = 4000;
/** A group without included audiences reaches this many people; with them, their sizes summed (at most this). */
export const BROAD_AUDIENCE = 1_000_000;
/** A lifetime budget without ends_at is spread over 30 days. */
export const OPEN_ENDED_HOURS = 720;
const HOUR = 3_600_000;

export function results(objective: Objective, impressions: number, clicks: number): number {
  switch (objective) {
    case 'awareness': return Math.floor((impressions * 2500) / 10000); // people reached
    case 'traffic': return clicks; // link clicks
    case 'engagement': return Math.floor((impressions * 200) / 10000);
    case 'leads': return Math.floor((clicks * 1000) / 10000);
    case 'sales': return Math.floor((clicks * 300) / 10000);
  }
}

/** People a group can reach: broad without included audiences, else their sizes summed (at most broad), less 10%
 * per excluded audience. `sizes` holds the audiences' size (a deleted audience counts 0). */
export function audienceSize(audiences: Audiences, sizes: Map<string, number>): number {
  let size = audiences.include.length === 0 ? BROAD_AUDIENCE
    : Math.min(BROAD_AUDIENCE, audiences.include.reduce((sum, id) => sum + (sizes.get(id) ?? 0), 0));
  for (let i = 0; i < audiences.exclude.length; i++) size = Math.floor((size * 9) / 10);
  return size;
}

/** What a budget may spend in one hour: a daily budget over 24; a lifetime budget over its scheduled hours (never
 * beyond what is left of it). */
export function hourlyBudget(budget: Budget, schedule: Schedule): number {
  if (budget.type === 'daily') return Math.floor(budget.amount / 24);
  const start = Math.max(schedule.launched_at.getTime(), schedule.starts_at?.getTime() ?? 0);
  const hours = schedule.ends_at ? Math.max(1, Math.ceil((schedule.ends_at.getTime() - start) / HOUR)) : OPEN_ENDED_HOURS;
  return Math.max(0, Math.min(Math.floor(budget.amount / hours), budget.amount - budget.spent));
}

/** n shares of total: equal, the remainder going one each to the first. */
export function split(total: number, n: number): number[] {
  const base = Math.floor(total / n);
  return Array.from({ length: n }, (_, i) => base + (i < total % n ? 1 : 0));
}

/** One ad's hour: its share of spend buys impressions at the objective's CPM, up to its share of the group's hourly
 * reach (1% of the audience); capped, it spends only what the impressions cost. */
export function adHour(objective: Objective, spendShare: number, impressionCap: number): AdHour {
  const bought = Math.floor((spendShare * 1000) / CPM[objective]);
  const impressions = Math.min(bought, impressionCap);
  const spend = impressions < bought ? Math.floor((impressions * CPM[objective]) / 1000) : spendShare;
  const clicks = Math.floor((impressions * CTR_BP[objective]) / 10000);
  const r = results(objective, impressions, clicks);
  return { impressions, clicks, results: r, spend, result_value: objective === 'sales' ? r * PURCHASE_VALUE : 0 };
}
