// The network's confirmation of a deposit, applied by this area in one transaction with the deposit locked: worth at
// least the minimum, it is credited once (entry <cdep_>:credited); under it, recorded as below_minimum and not
// credited. A deposit no longer pending is left alone, so a re-run confirmation is harmless.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { recordEvent } from '../../generated/events.js';
import { transition } from '../../generated/state-machine.js';
import { decimalText } from '../../runtime/decimal-money.js';
import { ledgerOf, PLATFORM, postEntry } from '../ledger/index.js';
import { resources } from '../../generated/resources.js';
import type { CryptoDepositRow } from '../../generated/rows.js';
import { DEPOSIT_MINIMUM, eventAccount } from './crypto-deposits.js';

/** Returns the status the deposit reached, or null when it was no longer pending. */
export async function confirmDeposit(db: Knex, depositId: string): Promise<string | null> {
  return db.transaction(async (trx) => {
    const [d] = await query<CryptoDepositRow>(trx, 'select * from crypto_deposits where id = $1 for update', [depositId]);
    if (!d || d.status !== 'pending') return null;
    const credited = Number(d.amount) >= DEPOSIT_MINIMUM;
    const status = transition('CryptoDeposit', d.status, credited ? 'confirm' : 'refuse_below_minimum');
    if (credited) {
      await postEntry(trx, `${d.id}:credited`, d.currency, [
        { ledger: await ledgerOf(trx, PLATFORM), bucket: 'crypto_clearing', amount: -Number(d.amount) },
        { ledger: d.ledger_id, bucket: 'available', amount: Number(d.amount) },
      ]);
    }
    const detail = credited ? 'Confirmed and credited.'
      : `Worth less than the ${decimalText({ amount: DEPOSIT_MINIMUM, decimals: 2 })} USD minimum: recorded, not credited.`;
    const [row] = await query<CryptoDepositRow>(trx, `update crypto_deposits set status = $2, status_detail = $3,
      settled_at = date_trunc('milliseconds', now()), updated_at = date_trunc('milliseconds', now()) where id = $1 returning *`,
    [d.id, status, detail]);
    await recordEvent(trx, credited ? 'crypto_deposit.confirmed' : 'crypto_deposit.below_minimum', eventAccount(d.owner_id), resources.CryptoDeposit.view(row));
    return status;
  });
}
