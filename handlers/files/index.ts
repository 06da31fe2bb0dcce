// What the rest of the project uses of the files area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { downloadUrl } from './file-links.js';
export { readyFile, readyFiles } from './ready-files.js';

// Used by the wiring and the entry points
export { fileTasks } from './file-objects.js';
export { fileRoutes } from './file-routes.js';

// Used by tests and the bench
export { deleteFileObjects } from './file-objects.js';
