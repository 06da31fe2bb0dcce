// One campaign's hour on the sandbox ad network: its hourly budget over its groups (or each group's own), then
// each group's share over its ads, each ad capped by its share of the group's hourly reach (delivery-model.ts).
import type { AdHour, CampaignHour } from '../../handlers/ads/index.js';
import { adHour, audienceSize, hourlyBudget, split } from './delivery-model.js';

export function deliverCampaignHour(c: CampaignHour): { ad_id: string; hour: AdHour }[] {
  if (c.groups.length === 0) return [];
  const groupBudgets = c.budget_optimization === 'ad_group'
    ? c.groups.map((g) => hourlyBudget(g.budget, c.schedule))
    : split(hourlyBudget(c.budget, c.schedule), c.groups.length);
  const out: { ad_id: string; hour: AdHour }[] = [];
  c.groups.forEach((g, i) => {
    const shares = split(groupBudgets[i]!, g.ad_ids.length);
    const caps = split(Math.floor(audienceSize(g.audiences, c.audience_sizes) / 100), g.ad_ids.length);
    g.ad_ids.forEach((adId, j) => out.push({ ad_id: adId, hour: adHour(c.objective, shares[j]!, caps[j]!) }));
  });
  return out;
}
