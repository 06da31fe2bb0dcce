// What the rest of the project uses of the transfers area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { trackingUrl } from './transfer-view.js';

// Used by the wiring and the entry points
export { transferTasks } from './claim-links.js';
export { transferRoutes } from './transfer-pages.js';
export { trackingTokenHash } from './transfer-secrets.js';

// Used by tests and the bench
export { expireClaimLink } from './claim-links.js';
