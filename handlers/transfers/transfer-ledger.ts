// Transfers move money between sides (accounts, users' wallets, the platform) by balanced entries of the ledger
// foundation (handlers/ledger/): this names the postings by side and resolves each side's ledger.
import type { Knex } from 'knex';
import { ledgerOf, postEntry as post } from '../ledger/index.js';

export interface Move {
  /** the side (biz_ or user_) whose balance moves, or 'platform' for the platform's fee revenue */
  side: string;
  bucket: 'available' | 'held' | 'fees';
  amount: number;
}

/** The balance (ldgr_) of a side, made on its first use; one ledger holds every currency. */
export const balanceOf = (db: Knex, side: string, _currency: string): Promise<string> => ledgerOf(db, side);

/** One balanced entry; a 400 insufficient_funds naming amount when a balance would go below its floor. */
export async function postEntry(db: Knex, entryId: string, currency: string, moves: Move[]): Promise<void> {
  const postings = [];
  for (const m of moves) postings.push({ ledger: await ledgerOf(db, m.side), bucket: m.bucket, amount: m.amount });
  await post(db, entryId, currency, postings);
}
