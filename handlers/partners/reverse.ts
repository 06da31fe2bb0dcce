// A referred account's payment whose money goes back to the buyer (a refund that settles, in full or in part, or a
// chargeback lost or closed unanswered) takes back the partner's commission in proportion, in the transaction that
// moves the buyer's money, with the payment row already locked (the lock order: payment, earning rows, postings).
//
// Rounding (integer math, BigInt): after the buyer got back B of a payment of total T, the partner has given back
// floor(C * B / T) of its commission C (and the platform fee and volume likewise); each step reverses the difference
// from what earlier reversals took. A partial refund rounds in the partner's favour, every step together never takes
// more than a single step of the same total would, and once the whole payment is back exactly C has been reversed.
//
// Each earning of the payment (the first tier's and the second tier's) is reversed so. A reversal is an earning row
// of its own (status reversed, negative amounts, reverses_id and source_id naming the earning and the refund or
// dispute); one ledger entry <source id>:partner_reversal moves them all from the partners' wallets back to the
// platform's fee revenue, returned for the caller to post with its own entries (one statement). It is taken
// from the wallet's pending bucket, which may go negative (a debt the wallet shows) where available may not: the
// partner spending the commission must never block the buyer's refund.
import type { Knex } from 'knex';
import { ledgerOf, PLATFORM } from '../ledger/index.js';
import type { Entry, Posting } from '../ledger/index.js';
import { newId } from '../../runtime/ids.js';
import { nowMs } from '../shared/now.js';

/** floor(part * back / total): the share of `part` that `back` of `total` stands for. */
export const shareOf = (part: number, back: number, total: number): number =>
  Number((BigInt(part) * BigInt(back)) / BigInt(total));

export type ReversalReason = 'refund' | 'chargeback';

/** Records the reversals the payment's money now calls for (one per earning of the payment: each tier's) and returns
 * their one entry; null when there is nothing to take back (not a referred payment, or rounding leaves the partners'
 * shares as they were). `sourceId` is the refund or the dispute. Reads the payment as the caller left it
 * (refunded_amount updated, the dispute's status set). */
export async function reversePartnerEarning(db: Knex, paymentId: string, sourceId: string, reason: ReversalReason): Promise<Entry | null> {
  const rows = (await db.raw(`select e.*, b.partner_user_id, p.total as payment_total, p.currency as payment_currency,
      least(p.total, p.refunded_amount + coalesce((select sum(d.amount) from disputes d
        where d.payment_id = p.id and d.status in ('lost', 'closed')), 0)) as back,
      coalesce((select sum(r.commission_amount) from partner_earnings r where r.reverses_id = e.id), 0) as reversed_commission,
      coalesce((select sum(r.platform_fee_amount) from partner_earnings r where r.reverses_id = e.id), 0) as reversed_fee,
      coalesce((select sum(r.transaction_amount) from partner_earnings r where r.reverses_id = e.id), 0) as reversed_volume
    from partner_earnings e join partner_businesses b on b.id = e.partner_business_id join payments p on p.id = e.payment_id
    where e.payment_id = ? and e.reverses_id is null order by e.id for update of e`, [paymentId])).rows;
  const postings: Posting[] = [];
  let taken = 0;
  for (const row of rows) {
    const total = Number(row.payment_total);
    const back = Number(row.back);
    const commission = shareOf(Number(row.commission_amount), back, total) + Number(row.reversed_commission);
    if (commission <= 0) continue;
    const fee = shareOf(Number(row.platform_fee_amount), back, total) + Number(row.reversed_fee);
    const volume = back + Number(row.reversed_volume);
    await db('partner_earnings').insert({
      id: newId('pern_'), partner_business_id: row.partner_business_id, account_id: row.account_id, payment_id: paymentId,
      product_id: row.product_id, income_source: row.income_source, status: 'reversed', payout_percentage: row.payout_percentage,
      transaction_amount: -volume, platform_fee_amount: -fee, commission_amount: -commission, payout_at: nowMs(db),
      source_id: sourceId, reverses_id: row.id, reversal_reason: reason,
    });
    postings.push({ ledger: await ledgerOf(db, row.partner_user_id), bucket: 'pending', amount: -commission });
    taken += commission;
  }
  if (taken === 0) return null;
  return { id: `${sourceId}:partner_reversal`, currency: rows[0].payment_currency,
    postings: [...postings, { ledger: await ledgerOf(db, PLATFORM), bucket: 'fees', amount: taken }] };
}
