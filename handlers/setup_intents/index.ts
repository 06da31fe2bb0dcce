// What the rest of the project uses of the setup_intents area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { finishSetupIntentAuthentication } from './authentication.js';
export { startSetupIntent } from './createSetupIntent.js';
export { savedMethodId } from './save-setup-intent.js';

// Used by the wiring and the entry points
export { setupIntentTasks } from './tasks.js';

// Used by tests and the bench
export { saveSetupIntent } from './save-setup-intent.js';
