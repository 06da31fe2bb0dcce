// The views of campaigns, ad groups and ads: the declared resource (generated/resources.ts) with what only the
// moment can say filled in: delivery_status from the tree's states and the stats window's figures. One statement
// reads both for the whole page, whatever its size. The lists and retrieves declare these as their fill
// (stats-fill.ts); writes view what they wrote through campaignViews, groupViews and adViews.
import type { Knex } from 'knex';
import type { Ad, AdCampaign, AdGroup } from '../../generated/types.js';
import { resources } from '../../generated/resources.js';
import type { AdCampaignRow, AdGroupRow, AdRow } from '../../generated/rows.js';
import { clockNow } from '../../runtime/clock.js';
import { statFields, totalsOf, totalsSelect, type Key, type Window } from './stats-window.js';

type Tree = { groups: number; active_groups: number; ads: number; active_ads: number };
type Fields = Partial<Pick<Ad | AdGroup | AdCampaign, 'delivery_status' | 'spend' | 'impressions' | 'clicks' | 'results' | 'return_on_ad_spend'>>;

/** The states `states` reads (one row per id, by `id`) with the window's totals per `key`, in one statement. */
async function statesWithTotals(db: Knex, key: Key, ids: string[], w: Window, states: string): Promise<Map<string, any>> {
  const [totals, values] = totalsSelect(key, ids, w);
  const { rows } = await db.raw(`select st.*, s.impressions, s.clicks, s.results, s.spend, s.result_value
    from (${states}) st left join (${totals}) s on s.k = st.id`, [ids, ...values]);
  return new Map(rows.map((r: { id: string }) => [r.id, r]));
}

/** Sets each view's computed fields from its row (views[i] is of rows[i]) and the row's states and totals. */
async function fillFrom<V, R extends { id: string }>(db: Knex, key: Key, views: V[], rows: readonly R[], w: Window, states: string,
  delivery: (row: R, state: any) => Fields['delivery_status']): Promise<void> {
  if (rows.length === 0) return;
  const read = await statesWithTotals(db, key, rows.map((r) => r.id), w, states);
  views.forEach((view, i) => {
    const state = read.get(rows[i].id);
    Object.assign(view as object, { delivery_status: delivery(rows[i], state), ...statFields(totalsOf(state)) });
  });
}

export function campaignDeliveryStatus(row: Pick<AdCampaignRow, 'status' | 'starts_at' | 'ends_at'>, tree: Tree | undefined,
  now = clockNow()): AdCampaign['delivery_status'] {
  if (row.status !== 'active') return row.status;
  if (row.ends_at && new Date(row.ends_at) <= now) return 'completed';
  if (row.starts_at && new Date(row.starts_at) > now) return 'scheduled';
  if (!tree || tree.groups === 0) return 'no_ad_groups';
  if (tree.active_groups === 0) return 'ad_groups_off';
  if (tree.active_ads === 0) return 'no_ads';
  return 'active';
}

/** Per campaign: live groups, active groups, live ads in active groups, active ads in active groups. */
const CAMPAIGN_TREES = `select x.id, count(distinct g.id)::int as groups,
    count(distinct g.id) filter (where g.status = 'active')::int as active_groups,
    count(a.id) filter (where g.status = 'active')::int as ads,
    count(a.id) filter (where g.status = 'active' and a.status = 'active')::int as active_ads
  from unnest(?::text[]) as x(id) left join ad_groups g on g.ad_campaign_id = x.id and g.deleted_at is null
  left join ads a on a.ad_group_id = g.id and a.deleted_at is null group by x.id`;

export const fillCampaigns = (db: Knex, views: AdCampaign[], rows: readonly AdCampaignRow[], w: Window): Promise<void> =>
  fillFrom(db, 'ad_campaign_id', views, rows, w, CAMPAIGN_TREES, (row, tree: Tree) => campaignDeliveryStatus(row, tree));

/** Per group: its campaign's status, its live ads and active ads. */
const GROUP_STATES = `select g.id, c.status as campaign_status, count(a.id)::int as ads,
    count(a.id) filter (where a.status = 'active')::int as active_ads
  from ad_groups g join ad_campaigns c on c.id = g.ad_campaign_id
  left join ads a on a.ad_group_id = g.id and a.deleted_at is null
  where g.id = any(?::text[]) group by g.id, c.status`;

export const fillGroups = (db: Knex, views: AdGroup[], rows: readonly AdGroupRow[], w: Window): Promise<void> =>
  fillFrom(db, 'ad_group_id', views, rows, w, GROUP_STATES, (row, s: { campaign_status: string; ads: number; active_ads: number }): AdGroup['delivery_status'] =>
    s.campaign_status === 'draft' ? 'draft'
      : s.campaign_status !== 'active' ? 'campaign_paused'
        : row.status === 'paused' ? 'paused' : s.ads === 0 ? 'no_ads' : s.active_ads === 0 ? 'ads_off' : 'active');

/** Per ad: its campaign's and its group's status. */
const AD_STATES = `select a.id, c.status as campaign_status, g.status as group_status
  from ads a join ad_groups g on g.id = a.ad_group_id join ad_campaigns c on c.id = a.ad_campaign_id where a.id = any(?::text[])`;

export const fillAds = (db: Knex, views: Ad[], rows: readonly AdRow[], w: Window): Promise<void> =>
  fillFrom(db, 'ad_id', views, rows, w, AD_STATES, (row, s: { campaign_status: string; group_status: string }): Ad['delivery_status'] =>
    s.campaign_status === 'draft' ? 'draft'
      : s.campaign_status !== 'active' ? 'campaign_paused'
        : s.group_status === 'paused' ? 'ad_group_paused' : row.status === 'paused' ? 'paused' : 'active');

/** Views of rows a write just read, filled by `fill`. */
function viewsWith<V, R>(view: (row: R) => V, fill: (db: Knex, views: V[], rows: readonly R[], w: Window) => Promise<void>) {
  return async (db: Knex, rows: R[], w: Window): Promise<V[]> => {
    const views = rows.map(view);
    await fill(db, views, rows, w);
    return views;
  };
}

export const campaignViews = viewsWith(resources.AdCampaign.view, fillCampaigns);
export const groupViews = viewsWith(resources.AdGroup.view, fillGroups);
export const adViews = viewsWith(resources.Ad.view, fillAds);
