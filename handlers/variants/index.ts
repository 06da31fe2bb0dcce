// What the rest of the project uses of the variants area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { createVariant } from './variant-service.js';
