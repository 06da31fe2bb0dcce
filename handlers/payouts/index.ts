// What the rest of the project uses of the payouts area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { formatAmount, parseAmount } from './payout-money.js';
export type { PayoutRail } from './payout-rail-port.js';
export { takeRailReport } from './rail-reports.js';
export type { RailPayout, RailReport } from './rail-reports.js';

// Used by the wiring and the entry points
export { payoutRail } from './payout-rail-port.js';
