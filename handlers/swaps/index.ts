// What the rest of the project uses of the swaps area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by tests and the bench
export { divideHalfEven } from './fx.js';
