// What the rest of the project uses of the deposits area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { confirmDeposit } from './confirm-deposit.js';
export type { CryptoNetwork, Network } from './crypto-network-port.js';
export { ownBalanceOr, requireDestination } from './destination.js';

// Used by the wiring and the entry points
export { cryptoNetwork } from './crypto-network-port.js';
