// What the rest of the project uses of the people area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Bound by generated routes and resources
export { listEvents } from './listEvents.js';

// Used by tests and the bench
export { INSERT_EVENT } from './createEvent.js';
export { ADD, CREATE, HELD, LOCK } from './identify.js';
