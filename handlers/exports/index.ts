// What the rest of the project uses of the exports area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by the wiring and the entry points
export { EXPIRE_EXPORTS, exportRetentionSweep } from './expire.js';
export { exportTasks } from './tasks.js';

// Bound by generated routes and resources
export { downloadUrl } from './export-view.js';

// Used by tests and the bench
export { columnsAt, csvWriter } from './csv-columns.js';
export { expireExports } from './expire.js';
export { GENERATE_EXPORT, generateExport } from './generate.js';
