// A payout's money, by balanced entries (handlers/ledger/post.ts). Requesting reserves the whole amount
// (available -> in_transit; the floor refuses what the balance does not cover); completion sends the net amount
// out (the platform's payout_clearing: owed to the rail) and the fee to the platform; a failure, denial or cancel
// returns the reservation; a reversal brings the net amount back. Entry ids are the payout's and the step's, so a
// step re-run by a job cannot post twice.
import type { Knex } from 'knex';
import { ledgerOf, PLATFORM, postEntry, type Entry } from '../ledger/index.js';
import type { PayoutRow } from './payout-view.js';

const amounts = (p: PayoutRow) => ({ amount: Number(p.amount), fee: Number(p.fee_amount), net: Number(p.net_amount) });

/** The request's entry (posted with its COMMIT, handlers/payouts/request-payout.ts): two postings. */
export const reservation = (payoutId: string, ledgerId: string, currency: string, amount: number): Entry => ({
  id: `${payoutId}:requested`, currency, postings: [
    { ledger: ledgerId, bucket: 'available', amount: -amount },
    { ledger: ledgerId, bucket: 'in_transit', amount },
  ],
});

export async function releasePayout(db: Knex, p: PayoutRow): Promise<void> {
  const { amount } = amounts(p);
  await postEntry(db, `${p.id}:released`, p.currency, [
    { ledger: p.ledger_id, bucket: 'in_transit', amount: -amount },
    { ledger: p.ledger_id, bucket: 'available', amount },
  ]);
}

export async function completePayout(db: Knex, p: PayoutRow): Promise<void> {
  const { amount, fee, net } = amounts(p);
  const platform = await ledgerOf(db, PLATFORM);
  await postEntry(db, `${p.id}:completed`, p.currency, [
    { ledger: p.ledger_id, bucket: 'in_transit', amount: -amount },
    { ledger: platform, bucket: 'payout_clearing', amount: net },
    { ledger: platform, bucket: 'fees', amount: fee },
  ]);
}

export async function reversePayout(db: Knex, p: PayoutRow): Promise<void> {
  const { net } = amounts(p);
  const platform = await ledgerOf(db, PLATFORM);
  await postEntry(db, `${p.id}:reversed`, p.currency, [
    { ledger: platform, bucket: 'payout_clearing', amount: -net },
    { ledger: p.ledger_id, bucket: 'available', amount: net },
  ]);
}
