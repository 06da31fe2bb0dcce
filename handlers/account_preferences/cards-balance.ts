// Whether the account has a cards balance (a ledger account of kind cards): auto top-up needs one to fill.
import type { Knex } from 'knex';

export async function hasCardsBalance(db: Knex, accountId: string): Promise<boolean> {
  return Boolean(await db('ledger_accounts').where({ account_id: accountId, kind: 'cards' }).first('id'));
}
