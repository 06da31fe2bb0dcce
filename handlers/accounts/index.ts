// What the rest of the project uses of the accounts area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { isUniqueViolation } from './account-service.js';
export { pickableOffers } from './account-view.js';
export type { AccountRow } from './account-view.js';
export { countSettledVolume, recountVolume } from './lifetime-volume.js';
export { holdFunds, holdFundsOnRefusal, releaseFunds } from './payment-controls.js';

// Used by the wiring and the entry points
export { insertAccount } from './account-service.js';
export { DEPLOY_BLUEPRINT, deployBlueprint } from './account-sites.js';
export { websiteRoutes } from './website-pages.js';

// Bound by generated routes and resources
export { balanceOf } from './account-fields.js';
export { websiteUrlOf } from './website-fields.js';

// Used by tests and the bench
export { referPartnerBusiness } from './account-service.js';
export type { NewAccount } from './account-service.js';
export { deploySite } from './account-sites.js';
