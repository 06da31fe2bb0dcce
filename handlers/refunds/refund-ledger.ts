// A refund's double-entry posting, on the selling account's business ledger, the reverse of part of its payment's
// settlement (handlers/payments/ledger.ts).
import type { Knex } from 'knex';
import { ledgerOf } from '../ledger/index.js';
import type { Entry } from '../ledger/index.js';

/** A refund takes the amount back out of the pending balance (fees are not returned); pending may go negative. The
 * entry, for the caller to post with what else its transaction moves (settle-refund.ts). */
export async function refundEntry(db: Knex, refund: { id: string; account_id: string; currency: string; amount: number }): Promise<Entry> {
  const ledger = await ledgerOf(db, refund.account_id);
  return { id: refund.id, currency: refund.currency, postings: [
    { ledger, bucket: 'pending', amount: -refund.amount },
    { ledger, bucket: 'processor_clearing', amount: refund.amount },
  ] };
}
