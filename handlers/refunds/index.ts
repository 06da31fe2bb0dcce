// What the rest of the project uses of the refunds area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { refuseChargedBack } from './charged-back.js';
export { createPendingRefund, refundableRemaining } from './pending-refund.js';
export { REFUND_PAYMENT, refundPaymentTask } from './settle-refund.js';

// Used by the wiring and the entry points
export { refundFollowUps } from './refund-follow-ups-port.js';

// Used by tests and the bench
export { settleRefund } from './settle-refund.js';
