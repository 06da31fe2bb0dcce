// What the rest of the project uses of the users area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { isSelf } from './user-view.js';

// Used by the wiring and the entry points
export { insertUser, issueUserToken } from './user-service.js';
