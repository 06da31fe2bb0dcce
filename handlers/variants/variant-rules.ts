// The rules a variant's terms must satisfy, shared by create and update (and inline variants of checkout
// configurations). Each failure names the offending field.
import type { Knex } from 'knex';
import { conflict, invalid } from '../../runtime/errors.js';
import { randomToken } from '../../runtime/ids.js';
import { checkChallengeAllowedFor } from '../shared/three-d-secure.js';

/** The terms after a create or update: what the rules look at. */
export interface VariantTerms {
  plan_type: 'renewal' | 'one_time';
  billing_period?: number | null;
  trial_period_days?: number | null;
  renewal_price?: number | null;
}

const RENEWAL_ONLY = ['billing_period', 'renewal_price', 'trial_period_days', 'split_pay_required_payments'];
const ONE_TIME_ONLY = ['expiration_days'];

const sentValue = (sent: Record<string, unknown>, field: string) => sent[field] !== undefined && sent[field] !== null;

/** one_time variants have no renewal terms (and may expire); renewal variants need a billing period and do not
 * expire by days (they end by cancellation, failed renewals or split_pay_required_payments). */
export function checkPlanTypeTerms(terms: VariantTerms, sent: Record<string, unknown>, prefix: string): void {
  if (terms.plan_type === 'one_time') {
    for (const field of RENEWAL_ONLY) {
      if (sentValue(sent, field)) throw invalid(`${field} applies to renewal variants only; this variant is one_time`, `${prefix}${field}`);
    }
    return;
  }
  for (const field of ONE_TIME_ONLY) {
    if (sentValue(sent, field)) throw invalid(`${field} applies to one_time variants only; this variant is renewal`, `${prefix}${field}`);
  }
  if (terms.billing_period == null) {
    throw invalid('billing_period (days between renewals) is required for renewal variants', `${prefix}billing_period`);
  }
}

/** A quick link sells at a stated price: the price fields must be sent with it. */
export function checkQuickLinkPrices(planType: string, sent: Record<string, unknown>, prefix: string): void {
  const needed = planType === 'renewal' ? ['initial_price', 'renewal_price'] : ['initial_price'];
  for (const field of needed) {
    if (sent[field] === undefined) {
      throw invalid(`${field} is required when visibility is quick_link`, `${prefix}${field}`);
    }
  }
}

export const SHORT_LINK_CONSTRAINT = 'plans_short_link_unique';

export const shortLinkTaken = (shortLink: string, prefix: string) =>
  conflict(`The short_link '${shortLink}' is already in use`, `${prefix}short_link`);

export async function checkShortLinkFree(db: Knex, shortLink: string, prefix: string, exceptId?: string): Promise<void> {
  const q = db('plans').where({ short_link: shortLink });
  if (exceptId) q.whereNot('id', exceptId);
  if (await q.first('id')) throw shortLinkTaken(shortLink, prefix);
}

export const generatedShortLink = () => randomToken(8);

export async function checkThreeDSecure(db: Knex, accountId: string, policy: string | null | undefined, prefix: string) {
  if (policy === 'mandate_challenge') await checkChallengeAllowedFor(db, accountId, `${prefix}three_d_secure_policy`);
}
