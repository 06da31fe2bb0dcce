// What the rest of the project uses of the economic_intelligence area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { queueRecommendations } from './generate.js';

// Used by the wiring and the entry points
export { SWEEP_TASK, economicIntelligenceTasks } from './generate.js';

// Used by tests and the bench
export { GENERATE_TASK, generateRecommendations, sweepRecommendations } from './generate.js';
