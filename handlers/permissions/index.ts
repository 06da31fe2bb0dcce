// What the rest of the project uses of the permissions area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { customersOf, resolveResource } from './resource-kinds.js';
export type { Customers } from './resource-kinds.js';
