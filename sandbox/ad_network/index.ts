// The sandbox ad network: its delivery model (delivery-model.ts, campaign-hour.ts), its reach estimate
// (reach-model.ts) and its own posts (network-posts.ts), served through the ads area's port.
import type { AdNetwork } from '../../handlers/ads/index.js';
import { deliverCampaignHour } from './campaign-hour.js';
import { syncNetworkPost } from './network-posts.js';
import { estimatePeople, reachRange } from './reach-model.js';

export const sandboxAdNetwork: AdNetwork = {
  deliverHour: async (campaign) => deliverCampaignHour(campaign),
  estimateReach: async (targeting, audienceSizes) => reachRange(estimatePeople(targeting, audienceSizes)),
  syncPost: syncNetworkPost,
};
