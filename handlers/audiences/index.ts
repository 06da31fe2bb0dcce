// What the rest of the project uses of the audiences area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by the wiring and the entry points
export { audienceTasks } from './build.js';

// Bound by generated routes and resources
export { matchRatesOf, platformAudienceIdsOf } from './build-model.js';

// Used by tests and the bench
export { BUILD_AUDIENCE, buildAudience } from './build.js';
