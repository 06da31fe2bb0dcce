// A referred account's settled payment earns its partners a commission, in the settlement's transaction (called by
// handlers/payments/settlement.ts, with the payment row already locked; its entry is posted with the payment's own:
// the lock order is payment, then the relations (shared: a removal waits for the settlement, or the settlement sees
// it), then the earning rows, then ledger postings). Each active relation whose referral window
// has not ended earns floor(platform_fee * sales_percentage / 100) cents, in exact integer (BigInt) arithmetic: the
// first tier (the account's referrer) and, only alongside it, the second tier (the referrer's own referrer). The
// platform pays it out of its fee revenue into the partner's pending balance: the earning awaits the payment's
// settlement (its funds clearing, handlers/ledger/clearing-partner-earnings.ts), which makes it completed and available.
import type { Knex } from 'knex';
import { ledgerOf, PLATFORM } from '../ledger/index.js';
import type { Entry, Posting } from '../ledger/index.js';
import { newId } from '../../runtime/ids.js';
import { SALES_PERCENTAGE } from './refer.js';

export { SALES_PERCENTAGE };

export const commissionOf = (platformFee: number, percentage: number): number =>
  Number((BigInt(platformFee) * BigInt(percentage)) / 100n);

interface SettledPayment { id: string; account_id: string; currency: string; total: number; product_id: string | null }

/** Records the earnings and returns their one entry, for the settlement to post with its own (one statement: one
 * lock order for the balances of all); null when nothing is earned. */
export async function accruePartnerEarning(db: Knex, payment: SettledPayment, platformFee: number): Promise<Entry | null> {
  if (payment.currency !== 'usd') return null;
  const relations = await db('partner_businesses').where({ account_id: payment.account_id, status: 'active' })
    .where('referral_expires_at', '>', db.raw('now()')).orderBy('tier').forShare();
  if (!relations.some((b) => b.tier === 'first')) return null;
  const postings: Posting[] = [];
  let paid = 0;
  for (const business of relations) {
    const percentage = Number(business.sales_percentage);
    const commission = commissionOf(platformFee, percentage);
    const [made] = await db('partner_earnings').insert({
      id: newId('pern_'), partner_business_id: business.id, account_id: payment.account_id, payment_id: payment.id,
      product_id: payment.product_id, income_source: 'sales', status: 'awaiting_settlement', payout_percentage: percentage,
      transaction_amount: payment.total, platform_fee_amount: platformFee, commission_amount: commission, payout_at: null,
      source_id: payment.id,
    }).onConflict(['partner_business_id', 'source_id']).ignore().returning('id');
    if (!made || commission === 0) continue;
    postings.push({ ledger: await ledgerOf(db, business.partner_user_id), bucket: 'pending', amount: commission });
    paid += commission;
  }
  if (paid === 0) return null;
  return { id: `${payment.id}:partner`, currency: payment.currency,
    postings: [{ ledger: await ledgerOf(db, PLATFORM), bucket: 'fees', amount: -paid }, ...postings] };
}
