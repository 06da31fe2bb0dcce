// Balances for the swaps tests: funded, and negative (a pending bucket below zero, as a refund of money already paid
// out leaves it), through the ledger's own posting function.
import type { Knex } from 'knex';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { postEntry } from '../../handlers/ledger/post.js';
import { newId } from '../../runtime/ids.js';
import { headVersion } from '../../runtime/versions.js';

export const VERSION = headVersion();
/** Before entry 44 (2026-08-07): a fiat amount is the repayment. */
export const PIN = '2026-07-30';

/** A refund of `amount` after the money was paid out: the side's pending bucket goes `amount` below zero. */
export async function owe(db: Knex, side: string, amount: number, currency: string): Promise<void> {
  const ledger = await ledgerOf(db, side);
  await postEntry(db, newId('le_refund_'), currency, [
    { ledger, bucket: 'pending', amount: -amount },
    { ledger, bucket: 'processor_clearing', amount },
  ]);
}

export const bucketOf = async (db: Knex, side: string, currency: string, bucket = 'available') =>
  Number((await db('ledger_balances').where({ ledger_id: await ledgerOf(db, side), currency, bucket }).first('amount'))?.amount ?? 0);
