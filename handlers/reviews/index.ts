// What the rest of the project uses of the reviews area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export type { Moderator } from './moderator-port.js';

// Used by the wiring and the entry points
export { reviewTasks } from './moderate.js';
export { moderator } from './moderator-port.js';

// Bound by generated routes and resources
export { listReviews } from './listReviews.js';
export { attachmentsOf } from './review-fields.js';

// Used by tests and the bench
export { MODERATE_TASK, moderateReview } from './moderate.js';
