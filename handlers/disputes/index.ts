// What the rest of the project uses of the disputes area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export type { DisputeScheme } from './card-scheme-port.js';
export { EVIDENCE_FIELDS } from './evidence.js';
export { openDispute, takeNetworkReport, takeRuling } from './network.js';
export type { DisputeUnderReview, SchemeReport } from './network.js';
export { networkDelay } from './submit.js';

// Used by the wiring and the entry points
export { chargebackFollowUps } from './chargeback-follow-ups-port.js';
export { disputeScheme } from './card-scheme-port.js';
export { preventByRefund } from './prevent-by-refund.js';
export { disputeTasks } from './tasks.js';

// Used by tests and the bench
export { closeUnanswered, endAlertWindow } from './network.js';
