// Account rows -> the Account resource, with the balance breakdown and rewards computed for the caller.
import type { Knex } from 'knex';
import type { Account, RewardMilestone, EconomicIntelligenceOffer } from '../../generated/types.js';
import type { Access } from '../../runtime/access.js';
import { money } from '../shared/money.js';

export type AccountRow = Record<string, any>;

/** Offers a caller can pick now: none while Economic Intelligence is on or during its free trial. */
export async function pickableOffers(db: Knex, row: AccountRow, now = Date.now()): Promise<EconomicIntelligenceOffer[]> {
  const on = row.economic_intelligence_ends_at && Date.parse(row.economic_intelligence_ends_at) > now;
  const trial = row.economic_intelligence_trial_ends_at && Date.parse(row.economic_intelligence_trial_ends_at) > now;
  if (on || trial) return [];
  const offers = await db('economic_intelligence_offers').orderBy('position');
  return offers.map((o) => ({
    key: o.key, duration: o.duration, duration_unit: o.duration_unit, auto_renew: o.auto_renew, price: money(o.price_amount, o.currency),
  }));
}

async function rewardsFor(db: Knex, access: Access, row: AccountRow): Promise<RewardMilestone[]> {
  const allowed = (await access.has(row.id, 'company:balance:read')) || (await access.has(row.id, 'stats:read'));
  if (!allowed) return [];
  const [milestones, payouts] = await Promise.all([
    db('reward_milestones').orderBy('threshold_usd'),
    db('reward_payouts').where({ account_id: row.id }),
  ]);
  const paid = new Map(payouts.map((p) => [p.milestone_id, p.status]));
  return milestones.map((m) => {
    const qualified = row.lifetime_volume_usd >= m.threshold_usd;
    return {
      id: m.id,
      title: m.title,
      threshold: money(m.threshold_usd),
      progress: money(Math.min(row.lifetime_volume_usd, m.threshold_usd)),
      qualified,
      payout_status: qualified ? (paid.get(m.id) ?? 'pending') : 'not_qualified',
    };
  });
}

async function balanceOf(db: Knex, accountId: string) {
  // Balances move only through ledger postings; an account without postings has zero in every bucket.
  const rows = await db('ledger_postings').where({ account_id: accountId, currency: 'usd' })
    .select('bucket').sum({ amount: 'amount' }).groupBy('bucket');
  const of = (bucket: string) => money(Number((rows as Record<string, unknown>[]).find((r) => r.bucket === bucket)?.amount ?? 0));
  return { available: of('available'), pending: of('pending'), in_transit: of('in_transit') };
}

export async function accountView(db: Knex, access: Access, row: AccountRow): Promise<Account> {
  const parent = row.parent_id ? await db('accounts').where({ id: row.parent_id }).first('id', 'title', 'route', 'logo_url') : null;
  const [balance, rewards, offers] = await Promise.all([balanceOf(db, row.id), rewardsFor(db, access, row), pickableOffers(db, row)]);
  return {
    id: row.id,
    title: row.title,
    email: row.email,
    route: row.route,
    logo_url: row.logo_url,
    country: row.country,
    status: row.status,
    parent_account: parent ? { id: parent.id, title: parent.title, route: parent.route, logo_url: parent.logo_url } : null,
    business_type: row.business_type,
    industry_type: row.industry_type,
    metadata: row.metadata,
    send_customer_emails: row.send_customer_emails,
    affiliate_code: row.affiliate_code,
    blueprint_id: row.blueprint_id,
    three_d_secure_policy: row.three_d_secure_policy,
    payment_controls: { undated_pending_reason: row.undated_pending_reason },
    balance,
    rewards,
    economic_intelligence_ends_at: row.economic_intelligence_ends_at,
    economic_intelligence_offers: offers,
    tax_remitted_by: row.tax_remitted_by,
    tax_type: row.tax_type,
    product_tax_code_id: row.product_tax_code_id,
    business_address: row.business_address,
    tax_identifiers: row.tax_identifiers,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
