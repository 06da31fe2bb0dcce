// What the rest of the project uses of the payments area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { finishPaymentAuthentication } from './authentication.js';
export type { SettlementScheme } from './card-scheme-port.js';
export { insertCharge } from './charge.js';
export type { PaymentOutcomes } from './payment-outcomes-port.js';
export { resolveSource, savedMethodSource } from './payment-source.js';
export { loadPaymentView } from './payment-view.js';
export { priceOf } from './pricing.js';
export type { Price } from './pricing.js';
export { retryCollection } from './retry-collection.js';

// Used by the wiring and the entry points
export { settlementScheme } from './card-scheme-port.js';
export { paymentOutcomes } from './payment-outcomes-port.js';
export { receiptRoutes } from './receipts.js';
export { paymentTasks } from './tasks.js';

// Bound by generated routes and resources
export { amountAfterFees, nextAction, pdfUrl, usdTotal } from './payment-fields.js';

// Used by tests and the bench
export { collectPayment } from './collection.js';
export { MEMBER_AND_VARIANT } from './payment-source.js';
