// What the rest of the project uses of the partners area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { accruePartnerEarning } from './accrue.js';
export { referAccount } from './refer.js';
export { reversePartnerEarning } from './reverse.js';

// Used by tests and the bench
export { SALES_PERCENTAGE, commissionOf } from './accrue.js';
export { REFERRAL_WINDOW_DAYS } from './refer.js';
export { shareOf } from './reverse.js';
