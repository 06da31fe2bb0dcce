// A referred account's settled payment earns its partner a commission, in the settlement's transaction (called by
// handlers/payments/settlement.ts, with the payment row already locked; its entry is posted with the payment's own:
// the lock order is payment, then the earning row, then ledger postings). The platform pays it out of its fee revenue:
// floor(platform_fee * sales_percentage / 100) cents, in exact integer (BigInt) arithmetic; the partner never gets
// more than its share, and the remainder of a cent stays with the platform.
import type { Knex } from 'knex';
import { ledgerOf, PLATFORM } from '../ledger/ledgers.js';
import type { Entry } from '../ledger/post.js';
import { newId } from '../../runtime/ids.js';
import { nowMs } from '../shared/now.js';

/** Whole percent of the platform fee a new referral earns on sales. */
export const SALES_PERCENTAGE = 30;

export const commissionOf = (platformFee: number, percentage: number): number =>
  Number((BigInt(platformFee) * BigInt(percentage)) / 100n);

interface SettledPayment { id: string; account_id: string; currency: string; total: number; product_id: string | null }

/** Records the earning and returns its entry, for the settlement to post with its own (one statement: one lock
 * order for the balances of both); null when nothing is earned. */
export async function accruePartnerEarning(db: Knex, payment: SettledPayment, platformFee: number): Promise<Entry | null> {
  if (payment.currency !== 'usd') return null;
  const business = await db('partner_businesses').where({ account_id: payment.account_id, status: 'active' }).first();
  if (!business) return null;
  const percentage = Number(business.sales_percentage);
  const commission = commissionOf(platformFee, percentage);
  const id = newId('pern_');
  const [made] = await db('partner_earnings').insert({
    id, partner_business_id: business.id, account_id: payment.account_id, payment_id: payment.id,
    product_id: payment.product_id, income_source: 'sales', status: 'completed', payout_percentage: percentage,
    transaction_amount: payment.total, platform_fee_amount: platformFee, commission_amount: commission, payout_at: nowMs(db),
    source_id: payment.id,
  }).onConflict('source_id').ignore().returning('id');
  if (!made || commission === 0) return null;
  return { id: `${payment.id}:partner`, currency: payment.currency, postings: [
    { ledger: await ledgerOf(db, PLATFORM), bucket: 'fees', amount: -commission },
    { ledger: await ledgerOf(db, business.partner_user_id), bucket: 'available', amount: commission },
  ] };
}
