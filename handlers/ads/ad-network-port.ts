// What the ads area asks of the ad network it buys from: what a campaign's ads deliver in one hour, the reach of a
// draft targeting, and the post the network makes from an ad that promotes none of the page's. The hourly
// delivery (deliver.ts) asks with the campaign locked and writes the figures, bills the hour and moves the
// campaign itself.
import type { Knex } from 'knex';
import { definePort } from '../../runtime/ports.js';

export type Objective = 'awareness' | 'traffic' | 'engagement' | 'leads' | 'sales';

export interface Audiences { include: string[]; exclude: string[] }
export interface Budget { amount: number; type: 'daily' | 'lifetime'; spent: number }
export interface Schedule { starts_at: Date | null; ends_at: Date | null; launched_at: Date }

/** One campaign's hour as the network sees it: its budget, schedule and delivering groups with their ads. */
export interface CampaignHour {
  objective: Objective;
  /** 'ad_group': each group spends its own budget; else the campaign's budget is shared by its groups */
  budget_optimization: string;
  budget: Budget;
  schedule: Schedule;
  groups: { budget: Budget; audiences: Audiences; ad_ids: string[] }[];
  /** the size of every audience the groups name (a deleted audience counts 0) */
  audience_sizes: Map<string, number>;
}

/** One ad's hour, as the ad_delivery_hours columns hold it (spend and result_value in minor units). */
export interface AdHour { impressions: number; clicks: number; results: number; spend: number; result_value: number }

export interface Targeting {
  audiences: Audiences;
  demographics?: { automatic?: boolean; gender?: 'all' | 'male' | 'female'; minimum_age?: number; maximum_age?: number };
  devices?: { platforms?: ('mobile' | 'desktop')[] };
  languages?: string[];
}

/** What the network makes its own post of: the ad as now written (the ads columns of the same names). */
export interface AdCopy {
  id: string;
  account_id: string;
  post_id: string;
  post_source: string | null;
  primary_texts: { text: string }[] | null;
  headlines: { text: string }[] | null;
  creatives: { id: string }[] | null;
}

export interface ReachRange { users_lower_bound: number | null; users_upper_bound: number | null }

export interface AdNetwork {
  /** Every ad's figures for the hour, groups and ads in the order given. */
  deliverHour(campaign: CampaignHour): Promise<{ ad_id: string; hour: AdHour }[]>;
  estimateReach(targeting: Targeting, audienceSizes: Map<string, number>): Promise<ReachRange>;
  /** Makes or re-renders the network's own post of an ad that chose no post (post_id names it), in the caller's
   * transaction. */
  syncPost(db: Knex, ad: AdCopy): Promise<void>;
}

export const adNetwork = definePort<AdNetwork>('ad network');
