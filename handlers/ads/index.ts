// What the rest of the project uses of the ads area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export type { AdCopy, AdHour, AdNetwork, Audiences, Budget, CampaignHour, Objective, ReachRange, Schedule, Targeting } from './ad-network-port.js';
export { unpinnedAdPayload } from './unpinned-payload.js';

// Used by the wiring and the entry points
export { adNetwork } from './ad-network-port.js';
export { DELIVER_ADS, adDeliverySweep, deliverAdsTask } from './deliver.js';
export { adsTasks } from './tasks.js';

// Bound by generated routes and resources
export { creativesOf } from './creatives.js';
export { campaignFollows, campaignMoves } from './delivery-follows.js';
export { adPostThumbnailOf, postThumbnailOf } from './network-posts.js';
export { adCampaignStats, adGroupStats, adStats } from './stats-fill.js';

// Used by tests and the bench
export { deliverDue } from './deliver.js';
export { runAdsPaymentRetry } from './retry-ads-payment.js';
