// The money a dispute moves, on the selling account's business ledger, one entry per step (<dispute id>:<step>,
// <alert id>:fee). Everything is taken from and returned to `pending`: the floors (available, in_transit, held)
// never refuse a chargeback the network has already made, and pending may go negative (docs/ledger.md), as it
// does for a refund of money already cleared.
import type { Knex } from 'knex';
import { ledgerOf, postEntry, type Entry } from '../ledger/index.js';
import { currencyDecimals } from '../../runtime/money.js';

/** The network's dispute fee: 15 in the currency's major unit (15.00 USD = 1500 minor units; 15 JPY). */
export const disputeFee = (currency: string) => 15 * 10 ** currencyDecimals(currency);
/** What a billed alert costs: 10 in the currency's major unit (10.00 USD). Early fraud warnings are never billed. */
export const alertFee = (currency: string) => 10 * 10 ** currencyDecimals(currency);

/** A payment row's clearing columns (handlers/ledger/clearing.ts). */
export interface PaymentClearing { funds_cleared_at?: unknown; dispute_withheld?: unknown; [column: string]: unknown }

interface DisputeMoney { id: string; account_id: string; currency: string; amount: number | string; fee: number | string }

/** Opening: the processor takes the disputed amount back (processor_clearing) and the fee goes to fees. */
export async function postDisputeOpened(db: Knex, d: DisputeMoney): Promise<void> {
  const ledger = await ledgerOf(db, d.account_id);
  const amount = Number(d.amount);
  const fee = Number(d.fee);
  await postEntry(db, `${d.id}:opened`, d.currency, [
    { ledger, bucket: 'pending', amount: -(amount + fee) },
    { ledger, bucket: 'processor_clearing', amount },
    { ledger, bucket: 'fees', amount: fee },
  ]);
}

/** Won, or prevented by a refund (the buyer was paid by the refund instead): the amount comes back, the fee does not.
 * Before the payment clears it goes back to pending (clearing then includes it); after, the part clearing withheld
 * for the dispute goes to available and the rest to pending (handlers/ledger/clearing.ts). */
export async function disputeReturnedEntry(db: Knex, d: DisputeMoney, step: 'won' | 'prevented', payment: PaymentClearing): Promise<Entry> {
  const ledger = await ledgerOf(db, d.account_id);
  const amount = Number(d.amount);
  const toAvailable = payment.funds_cleared_at == null ? 0 : Math.min(amount, Number(payment.dispute_withheld));
  return { id: `${d.id}:${step}`, currency: d.currency, postings: [
    { ledger, bucket: 'available', amount: toAvailable },
    { ledger, bucket: 'pending', amount: amount - toAvailable },
    { ledger, bucket: 'processor_clearing', amount: -amount },
  ] };
}

/** A billed alert's fee. */
export async function postAlertFee(db: Knex, alert: { id: string; account_id: string; currency: string; fee: number }): Promise<void> {
  const ledger = await ledgerOf(db, alert.account_id);
  await postEntry(db, `${alert.id}:fee`, alert.currency, [
    { ledger, bucket: 'pending', amount: -alert.fee },
    { ledger, bucket: 'fees', amount: alert.fee },
  ]);
}
