// What the rest of the project uses of the experiences area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Bound by generated routes and resources
export { imageOf } from './experience-fields.js';
