// What the rest of the project uses of the verifications area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export type { IdentityChecker, Requirement, VerificationError } from './identity-checker-port.js';

// Used by the wiring and the entry points
export { identityChecker } from './identity-checker-port.js';
export { verificationTasks } from './tasks.js';

// Used by tests and the bench
export { reviewVerification } from './review.js';
