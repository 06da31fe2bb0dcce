// The generator's rules: each reads one fact of an account's own data and, when it holds, says what to recommend.
// Every query is bounded (LIMIT) and led by account_id, so a run costs the same for a large account as a small one.
import type { Knex } from 'knex';
import type { EconomicIntelligenceRecommendation } from '../../generated/types.js';

type Kind = EconomicIntelligenceRecommendation['kind'];
export interface Finding { title: string; summary: string; tools: [string, string][] }
export type Rule = (db: Knex, accountId: string) => Promise<Finding | null>;

/** Counted up to a bound: "1000+" is as actionable as the exact number and costs a bounded read. */
const CAP = 1000;
const counted = (n: number) => (n >= CAP ? `${CAP}+` : String(n));

async function countUpTo(db: Knex, sql: string, accountId: string): Promise<number> {
  const { rows } = await db.raw(`select count(*)::int as n from (${sql} limit ${CAP}) x`, [accountId]);
  return rows[0].n as number;
}

const plural = (n: number, one: string, many: string) => `${counted(n)} ${n === 1 ? one : many}`;

export const RULES: Record<Kind, Rule> = {
  async recover_past_due_memberships(db, accountId) {
    const n = await countUpTo(db, "select 1 from memberships where account_id = ? and status = 'past_due'", accountId);
    if (n === 0) return null;
    return {
      title: 'Recover past-due memberships',
      summary: `${plural(n, 'membership is', 'memberships are')} past due: their renewal payments failed and access ends if retries fail.`,
      tools: [
        ['listMemberships', 'List the memberships whose status is past_due.'],
        ['extendMembership', 'Give each a few free days while the buyer updates their payment method.'],
      ],
    };
  },
  async respond_to_disputes(db, accountId) {
    const n = await countUpTo(db, "select 1 from disputes where account_id = ? and status = 'needs_response'", accountId);
    if (n === 0) return null;
    return {
      title: 'Respond to open disputes',
      summary: `${plural(n, 'dispute needs', 'disputes need')} a response before the deadline, or the payment is lost.`,
      tools: [
        ['listDisputes', 'List the disputes whose status is needs_response.'],
        ['updateDisputeEvidence', 'Attach the evidence for each dispute.'],
        ['submitDispute', 'Submit each dispute\'s evidence to the card network.'],
      ],
    };
  },
  async add_variant_to_product(db, accountId) {
    const n = await countUpTo(db, `select 1 from products p where p.account_id = ? and p.deleted_at is null and p.visibility = 'visible'
      and not exists (select 1 from plans v where v.product_id = p.id and v.deleted_at is null and v.visibility <> 'archived')`, accountId);
    if (n === 0) return null;
    return {
      title: 'Put unsellable products on sale',
      summary: `${plural(n, 'visible product has', 'visible products have')} no variant, so buyers cannot purchase them.`,
      tools: [
        ['listProducts', 'List the account\'s visible products.'],
        ['createVariant', 'Create a variant with a price for each product without one.'],
      ],
    };
  },
  async launch_promo_code(db, accountId) {
    const sells = await countUpTo(db, "select 1 from plans where account_id = ? and deleted_at is null and visibility <> 'archived'", accountId);
    if (sells === 0) return null;
    const promos = await countUpTo(db, "select 1 from promo_codes where account_id = ? and status = 'active'", accountId);
    if (promos > 0) return null;
    return {
      title: 'Launch a promo code',
      summary: `The account sells ${plural(sells, 'variant', 'variants')} and has no active promo code to bring buyers back.`,
      tools: [['createPromoCode', 'Create a promo code for a variant.']],
    };
  },
};
