// What the rest of the project uses of the resolution_center_cases area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { closeOnChargeback } from './case-steps.js';
export type { CasePlatform } from './platform-port.js';

// Used by the wiring and the entry points
export { closeOnFullRefund } from './case-steps.js';
export { casePlatform } from './platform-port.js';
export { resolutionCenterTasks } from './platform.js';

// Bound by generated routes and resources
export { availableActions } from './case-fields.js';
export { listResolutionCenterCases } from './listResolutionCenterCases.js';

// Used by tests and the bench
export { escalateUnanswered, reviewCase } from './platform.js';
