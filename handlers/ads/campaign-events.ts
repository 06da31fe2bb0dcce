// ad_campaign.delivery_changed: emitted wherever a campaign's delivery_status may have moved, with the campaign
// as it now is (stats of the default window), only when the status differs from before.
import type { Knex } from 'knex';
import { recordEvent } from '../../generated/events.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import type { AdCampaign } from '../../generated/types.js';
import { campaignViews } from './views.js';
import { statsWindow } from './stats-window.js';

export async function campaignView(db: Knex, id: string): Promise<AdCampaign> {
  const row = await readRow(db, resources.AdCampaign, id);
  const [view] = await campaignViews(db, [row!], statsWindow({}));
  return view!;
}

/** The campaign's view now, and ad_campaign.delivery_changed when its delivery_status is not `before`. */
export async function afterCampaignChange(db: Knex, id: string, before: AdCampaign['delivery_status'] | null): Promise<AdCampaign> {
  const view = await campaignView(db, id);
  if (view.delivery_status !== before) await recordEvent(db, 'ad_campaign.delivery_changed', view.account_id, view);
  return view;
}

/** The delivery_status of each live campaign named, before a change that may move them. */
export async function deliveryStatuses(db: Knex, ids: string[]): Promise<Map<string, AdCampaign['delivery_status']>> {
  const rows = await db('ad_campaigns').whereIn('id', ids).whereNull('deleted_at');
  const views = await campaignViews(db, rows, statsWindow({}));
  return new Map(views.map((v) => [v.id, v.delivery_status]));
}
