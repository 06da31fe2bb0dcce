// A referral: an account made with affiliate_code becomes a partner business of that partner (first tier) and,
// when the partner was itself referred (an account the partner owns has a first-tier referrer of its own), of that
// upper partner too (second tier), each a relation of its own with its own terms and referral window.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { nowMs } from '../shared/now.js';

/** Whole percent of the platform fee a new first-tier referral earns on sales. */
export const SALES_PERCENTAGE = 30;
/** Whole percent of the platform fee a second-tier referral earns on sales (paid by the platform, on top of the first
 * tier's share: the first-tier partner's commission is never cut). */
export const SECOND_TIER_SALES_PERCENTAGE = 5;
/** Days a referral earns after it started: payments settled after referral_expires_at earn nothing. */
export const REFERRAL_WINDOW_DAYS = 365;

const expiry = (db: Knex) => db.raw(`date_trunc('milliseconds', now()) + make_interval(days => ?)`, [REFERRAL_WINDOW_DAYS]);

export async function referAccount(db: Knex, accountId: string, partnerUserId: string): Promise<void> {
  const first = newId('pbiz_');
  await db('partner_businesses').insert({
    id: first, account_id: accountId, partner_user_id: partnerUserId, tier: 'first', sales_percentage: SALES_PERCENTAGE,
    referral_started_at: nowMs(db), referral_expires_at: expiry(db),
  });
  // The partner's own referrer: the first-tier partner of the earliest referred account the partner owns (never the
  // partner itself), whose relation is still active.
  const upline = await db('partner_businesses as b').join('accounts as a', 'a.id', 'b.account_id')
    .where({ 'a.owner_user_id': partnerUserId, 'b.tier': 'first', 'b.status': 'active' })
    .whereNot('b.partner_user_id', partnerUserId)
    .orderBy('b.referral_started_at').orderBy('b.id').first('b.partner_user_id');
  if (!upline) return;
  await db('partner_businesses').insert({
    id: newId('pbiz_'), account_id: accountId, partner_user_id: upline.partner_user_id, tier: 'second', first_tier_business_id: first,
    sales_percentage: SECOND_TIER_SALES_PERCENTAGE, referral_started_at: nowMs(db), referral_expires_at: expiry(db),
  });
}
