// What the rest of the project uses of the api_keys area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by the wiring and the entry points
export { issueApiKey } from './api-key-service.js';
export { workbenchRoutes } from './workbench-page.js';

// Bound by generated routes and resources
export { apiKeyPermissions, apiKeyStatus } from './api-key-fields.js';
export { listApiKeys } from './listApiKeys.js';

// Used by tests and the bench
export type { NewApiKey } from './api-key-service.js';
