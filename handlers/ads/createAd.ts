// Written by hand, not declared plain: in an ad group of the caller's; may move the campaign's delivery status.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { lockGroup } from './load.js';
import { adColumns } from './ad-write.js';
import { syncNetworkPost } from './network-posts.js';
import { adViews } from './views.js';
import { statsWindow } from './stats-window.js';
import { afterCampaignChange, deliveryStatuses } from './campaign-events.js';

/** POST /ads: in an ad group of the caller's; emits ad.created (and the campaign's delivery change, if any). */
export const createAd: Handler<'createAd'> = async ({ body }, ctx) => {
  const group = await lockGroup(ctx, body.ad_group_id, 'ad_group_id');
  const columns = await adColumns(ctx.db, group, body);
  const before = (await deliveryStatuses(ctx.db, [group.ad_campaign_id])).get(group.ad_campaign_id) ?? null;
  const id = newId('ad_');
  await ctx.db('ads').insert({
    id, account_id: group.account_id, ad_campaign_id: group.ad_campaign_id, ad_group_id: group.id, title: body.title ?? null,
    status: body.status ?? 'active', call_to_action: body.call_to_action ?? null, url: body.url ?? null, post_source: body.post_source ?? null,
    ...columns,
  });
  await syncNetworkPost(ctx.db, id);
  await afterCampaignChange(ctx.db, group.ad_campaign_id, before);
  const view = (await adViews(ctx.db, [(await readRow(ctx.db, resources.Ad, id))!], statsWindow({})))[0]!;
  await ctx.emit('ad.created', group.account_id, view);
  return view;
};
