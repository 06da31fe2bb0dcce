// What the rest of the project uses of the api_logs area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by the wiring and the entry points
export { PURGE_API_LOGS, purgeApiLogsTask } from './purge.js';
export { upgradeAssistant } from './upgrade-assistant.js';
export type { UpgradeAssistant } from './upgrade-assistant.js';
export { shadowReplay } from './shadow-replay.js';

// Used by tests and the bench
export { purgeApiLogs } from './purge.js';
