// The fills the ad lists and retrieves declare (spec/areas/ads.yaml plain.fill): the stats window from stats_from and
// stats_to (a 400 before anything is read), then delivery_status and the window's figures for the page, in one
// statement (views.ts).
import type { Knex } from 'knex';
import type { Fill } from '../../generated/plain-hooks.js';
import { statsWindow, type Window } from './stats-window.js';
import { fillAds, fillCampaigns, fillGroups } from './views.js';

type StatsQuery = { stats_from?: string; stats_to?: string };

const overWindow = <V, R>(fill: (db: Knex, views: V[], rows: readonly R[], w: Window) => Promise<void>): Fill<V, StatsQuery, R> =>
  (query, ctx) => {
    const w = statsWindow(query);
    return (views, rows) => fill(ctx.db, views, rows, w);
  };

export const adCampaignStats = overWindow(fillCampaigns);
export const adGroupStats = overWindow(fillGroups);
export const adStats = overWindow(fillAds);
