// What the rest of the project uses of the media area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export type { MediaGenerator, MediaRequest, Resolution } from './media-generator-port.js';

// Used by the wiring and the entry points
export { mediaTasks } from './generate.js';
export { mediaGenerator } from './media-generator-port.js';

// Bound by generated routes and resources
export { mediaUrl } from './media-view.js';

// Used by tests and the bench
export { generateMediaAsset } from './generate.js';
