// What the rest of the project uses of the account_preferences area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { loadPreferences, loadPreferencesForUpdate, savePreferences } from './preferences-store.js';
export type { StoredAdsPaymentMethod } from './preferences-store.js';
export { canonicalTimezone } from './regional-settings.js';
export { RETRY_ADS_PAYMENT_TASK } from './retry-ads-payment-task.js';

// Used by the wiring and the entry points
export { accountPreferencesTasks } from './tasks.js';

// Used by tests and the bench
export { renewEconomicIntelligence } from './renew-economic-intelligence-task.js';
