// What the rest of the project uses of the members area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { ACCESS_GRANTING_STATUSES, holdsAccessGrantingMembership } from './access-level.js';
export { ensureMember, leaveIfNoAccessLeft, recordMemberOpened } from './member-service.js';
