// Funding a side and reading its balances, for the transfers tests (the ledger foundation, handlers/ledger/).
import type { Knex } from 'knex';
import { fundBalance } from '../helpers/ledger.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';

export async function fundSide(db: Knex, side: string, amount: number, currency = 'usd'): Promise<void> {
  await fundBalance(db, side, amount, currency);
}

const bucketOf = async (db: Knex, side: string, bucket: string, currency: string) =>
  Number((await db('ledger_balances').where({ ledger_id: await ledgerOf(db, side), currency, bucket }).first('amount'))?.amount ?? 0);

export const availableOf = (db: Knex, side: string, currency = 'usd') => bucketOf(db, side, 'available', currency);
export const heldOf = (db: Knex, side: string, currency = 'usd') => bucketOf(db, side, 'held', currency);
