// What the rest of the project uses of the cards area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { takeCardNetworkOutcome } from './card-network-outcomes.js';
export type { CardNetwork } from './card-network-port.js';

// Used by the wiring and the entry points
export { cardNetwork } from './card-network-port.js';

// Used by tests and the bench
export { cardsLedgerOf } from './cards-ledger.js';
