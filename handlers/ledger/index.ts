// What the rest of the project uses of the ledger area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { PLATFORM, ledgerOf } from './ledgers.js';
export { postEntries, postEntriesAtCommit, postEntry } from './post.js';
export type { Bucket, Entry, Posting } from './post.js';

// Used by the wiring and the entry points
export { CLEAR_DUE_FUNDS, clearDueFundsTask, clearingSweep } from './clearing.js';
export { verifyLedger } from './verify-ledger.js';
export type { LedgerReport } from './verify-ledger.js';

// Bound by generated routes and resources
export { currencyBalancesOf } from './ledger-fields.js';

// Used by tests and the bench
export { clearDueFunds, clearingSeconds } from './clearing.js';
