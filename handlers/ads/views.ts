// The views of campaigns, ad groups and ads: the declared resource (generated/resources.ts) with what only the
// moment can say filled in: delivery_status from the tree's states and the stats window's figures. One statement
// for the states and one for the stats, whatever the page's size.
import type { Knex } from 'knex';
import type { Ad, AdCampaign, AdGroup } from '../../generated/types.js';
import { resources } from '../../generated/resources.js';
import type { Row } from '../../runtime/plain/stored-resource.js';
import { statFields, totalsBy, type Window } from './stats-window.js';

type Tree = { groups: number; active_groups: number; ads: number; active_ads: number };

/** Per campaign: live groups, active groups, live ads in active groups, active ads in active groups. */
async function campaignTrees(db: Knex, ids: string[]): Promise<Map<string, Tree>> {
  const { rows } = await db.raw(`select g.ad_campaign_id as id, count(distinct g.id)::int as groups,
      count(distinct g.id) filter (where g.status = 'active')::int as active_groups,
      count(a.id) filter (where g.status = 'active')::int as ads,
      count(a.id) filter (where g.status = 'active' and a.status = 'active')::int as active_ads
    from ad_groups g left join ads a on a.ad_group_id = g.id and a.deleted_at is null
    where g.ad_campaign_id = any(?::text[]) and g.deleted_at is null group by g.ad_campaign_id`, [ids]);
  return new Map(rows.map((r: Tree & { id: string }) => [r.id, r]));
}

export function campaignDeliveryStatus(row: Row, tree: Tree | undefined, now = new Date()): AdCampaign['delivery_status'] {
  if (row.status !== 'active') return row.status as AdCampaign['delivery_status'];
  if (row.ends_at && new Date(row.ends_at) <= now) return 'completed';
  if (row.starts_at && new Date(row.starts_at) > now) return 'scheduled';
  if (!tree || tree.groups === 0) return 'no_ad_groups';
  if (tree.active_groups === 0) return 'ad_groups_off';
  if (tree.active_ads === 0) return 'no_ads';
  return 'active';
}

export async function campaignViews(db: Knex, rows: Row[], w: Window): Promise<AdCampaign[]> {
  const ids = rows.map((r) => r.id);
  const trees = await campaignTrees(db, ids);
  const stats = await totalsBy(db, 'ad_campaign_id', ids, w);
  return rows.map((row) => ({
    ...resources.AdCampaign.view(row), delivery_status: campaignDeliveryStatus(row, trees.get(row.id)), ...statFields(stats.get(row.id)),
  }));
}

export async function groupViews(db: Knex, rows: Row[], w: Window): Promise<AdGroup[]> {
  const ids = rows.map((r) => r.id);
  const { rows: states } = await db.raw(`select g.id, c.status as campaign_status, count(a.id)::int as ads,
      count(a.id) filter (where a.status = 'active')::int as active_ads
    from ad_groups g join ad_campaigns c on c.id = g.ad_campaign_id
    left join ads a on a.ad_group_id = g.id and a.deleted_at is null
    where g.id = any(?::text[]) group by g.id, c.status`, [ids]);
  const byId = new Map<string, { campaign_status: string; ads: number; active_ads: number }>(states.map((s: any) => [s.id, s]));
  const stats = await totalsBy(db, 'ad_group_id', ids, w);
  return rows.map((row) => {
    const s = byId.get(row.id)!;
    const delivery: AdGroup['delivery_status'] = s.campaign_status === 'draft' ? 'draft'
      : s.campaign_status !== 'active' ? 'campaign_paused'
        : row.status === 'paused' ? 'paused' : s.ads === 0 ? 'no_ads' : s.active_ads === 0 ? 'ads_off' : 'active';
    return { ...resources.AdGroup.view(row), delivery_status: delivery, ...statFields(stats.get(row.id)) };
  });
}

export async function adViews(db: Knex, rows: Row[], w: Window): Promise<Ad[]> {
  const ids = rows.map((r) => r.id);
  const { rows: states } = await db.raw(`select a.id, c.status as campaign_status, g.status as group_status
    from ads a join ad_groups g on g.id = a.ad_group_id join ad_campaigns c on c.id = a.ad_campaign_id where a.id = any(?::text[])`, [ids]);
  const byId = new Map<string, { campaign_status: string; group_status: string }>(states.map((s: any) => [s.id, s]));
  const stats = await totalsBy(db, 'ad_id', ids, w);
  return rows.map((row) => {
    const s = byId.get(row.id)!;
    const delivery: Ad['delivery_status'] = s.campaign_status === 'draft' ? 'draft'
      : s.campaign_status !== 'active' ? 'campaign_paused'
        : s.group_status === 'paused' ? 'ad_group_paused' : row.status === 'paused' ? 'paused' : 'active';
    return { ...resources.Ad.view(row), delivery_status: delivery, ...statFields(stats.get(row.id)) };
  });
}
