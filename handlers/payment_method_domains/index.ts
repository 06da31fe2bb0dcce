// What the rest of the project uses of the payment_method_domains area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export type { Dns } from './dns-port.js';
export { registrableHostname } from './hostname.js';
export { CHECKOUT_METHODS, domainStatus, isWallet, requireWalletDomain, walletRefusal } from './wallets.js';

// Used by the wiring and the entry points
export { dns } from './dns-port.js';
export { paymentMethodDomainTasks } from './verification.js';

// Used by tests and the bench
export { VERIFY_DOMAIN, verifyPaymentMethodDomain } from './verification.js';
