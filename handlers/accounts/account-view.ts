// Account rows -> the Account resource, with the balance breakdown and rewards computed for the caller.
// accountViews renders a whole page with a fixed number of queries, whatever the page size.
import type { Knex } from 'knex';
import { economicIntelligenceOffers, rewardMilestones } from '../shared/reference-tables.js';
import type { Account, AccountBalance, RewardMilestone, EconomicIntelligenceOffer } from '../../generated/types.js';
import type { Access } from '../../runtime/access.js';
import type { HandlerContext } from '../../runtime/handler.js';
import { money } from '../../runtime/money.js';
import { query } from '../../runtime/request-db.js';

export type AccountRow = Record<string, any>;
type OfferRow = Record<string, any>;

export interface ViewOptions {
  /** Versions before the economic_intelligence_offers_pickable_only flag list every offer, pickable or not. */
  allOffers?: boolean;
}

/** Offers a caller can pick now: none while Economic Intelligence is on or during its free trial. */
function offersFor(offers: OfferRow[], row: AccountRow, now: number, all = false): EconomicIntelligenceOffer[] {
  const on = row.economic_intelligence_ends_at && Date.parse(row.economic_intelligence_ends_at) > now;
  const trial = row.economic_intelligence_trial_ends_at && Date.parse(row.economic_intelligence_trial_ends_at) > now;
  if (!all && (on || trial)) return [];
  return offers.map((o) => ({
    key: o.key, duration: o.duration, duration_unit: o.duration_unit, auto_renew: o.auto_renew, price: money(o.price_amount, o.currency),
  }));
}

export async function pickableOffers(db: Knex, row: AccountRow, now = Date.now()): Promise<EconomicIntelligenceOffer[]> {
  return offersFor([...await economicIntelligenceOffers(db)] as OfferRow[], row, now);
}

/**
 * The accounts among `ids` whose client id the caller may see: its own account for an API key, and those where a
 * user token's user is an active owner or admin. A parent platform's key sees its connected accounts, not their ids.
 */
async function clientIdsShown(db: Knex, access: Access, ids: string[]): Promise<Set<string>> {
  const p = access.principal;
  if (p.kind === 'api_key') return new Set(ids.filter((id) => id === p.accountId));
  if (p.kind !== 'user_token') return new Set();
  const rows = await query(db, `select account_id from team_members
    where user_id = $1 and account_id = any($2) and status = 'active' and role in ('owner', 'admin')`, [p.userId, ids]);
  return new Set(rows.map((r) => r.account_id as string));
}

async function rewardsAllowed(access: Access, accountId: string): Promise<boolean> {
  return (await access.has(accountId, 'company:balance:read')) || (await access.has(accountId, 'stats:read'));
}

function rewardsOf(row: AccountRow, milestones: Record<string, any>[], paid: Map<string, string>): RewardMilestone[] {
  return milestones.map((m) => {
    const qualified = row.lifetime_volume_usd >= m.threshold_usd;
    return {
      id: m.id,
      title: m.title,
      threshold: money(m.threshold_usd),
      progress: money(Math.min(row.lifetime_volume_usd, m.threshold_usd)),
      qualified,
      payout_status: qualified ? ((paid.get(`${row.id}/${m.id}`) as RewardMilestone['payout_status']) ?? 'pending') : 'not_qualified',
    };
  });
}

/** Balances move only through ledger postings, which keep ledger_balances (a key lookup, whatever the history);
 * an account without postings has zero in every bucket. */
async function balancesOf(db: Knex, ids: string[]): Promise<(id: string) => AccountBalance> {
  const rows = await query(db, `select account_id, bucket, amount from ledger_balances
    where account_id = any($1) and currency = 'usd'`, [ids]);
  const sums = new Map(rows.map((r) => [`${r.account_id}/${r.bucket}`, Number(r.amount)]));
  return (id) => {
    const of = (bucket: string) => money(sums.get(`${id}/${bucket}`) ?? 0);
    return { available: of('available'), pending: of('pending'), in_transit: of('in_transit') };
  };
}

/** Runs the loads one after another: a request has a single connection (runtime/request-db.ts). */
async function gather<T extends readonly (() => Promise<unknown>)[]>(loads: T) {
  type Results = { [K in keyof T]: Awaited<ReturnType<T[K]>> };
  const out: unknown[] = [];
  for (const load of loads) out.push(await load());
  return out as Results;
}

export async function accountViews(db: Knex, access: Access, rows: AccountRow[], options: ViewOptions = {}): Promise<Account[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id as string);
  const parentIds = [...new Set(rows.map((r) => r.parent_id).filter(Boolean))];
  const [parents, balanceOf, milestones, payouts, offers, allowed, clientIdShown] = await gather([
    // The view is on every account read: fixed SQL on plain pg (runtime/request-db.ts query).
    async (): Promise<AccountRow[]> => (parentIds.length ? query(db, 'select id, title, route, logo_url from accounts where id = any($1)', [parentIds]) : []),
    () => balancesOf(db, ids),
    async (): Promise<AccountRow[]> => [...await rewardMilestones(db)],
    async (): Promise<AccountRow[]> => query(db, 'select * from reward_payouts where account_id = any($1)', [ids]),
    async (): Promise<OfferRow[]> => [...await economicIntelligenceOffers(db)] as OfferRow[],
    () => gather(ids.map((id) => () => rewardsAllowed(access, id))),
    () => clientIdsShown(db, access, ids),
  ] as const);
  const parentById = new Map(parents.map((p) => [p.id, p]));
  const paid = new Map(payouts.map((p) => [`${p.account_id}/${p.milestone_id}`, p.status]));
  const now = Date.now();
  return rows.map((row, i) => {
    const parent = row.parent_id ? parentById.get(row.parent_id) : null;
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
      balance: balanceOf(row.id),
      rewards: allowed[i] ? rewardsOf(row, milestones, paid) : [],
      economic_intelligence_ends_at: row.economic_intelligence_ends_at,
      economic_intelligence_offers: offersFor(offers, row, now, options.allOffers),
      tax_remitted_by: row.tax_remitted_by,
      tax_type: row.tax_type,
      product_tax_code_id: row.product_tax_code_id,
      business_address: row.business_address,
      tax_identifiers: row.tax_identifiers,
      client_id: clientIdShown.has(row.id) ? row.client_id : null,
      allowed_origins: row.allowed_origins,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}

export async function accountView(db: Knex, access: Access, row: AccountRow, options: ViewOptions = {}): Promise<Account> {
  const [view] = await accountViews(db, access, [row], options);
  return view;
}

/** How the caller's version wants accounts rendered. */
export function viewOptions(ctx: HandlerContext): ViewOptions {
  return { allOffers: !ctx.flag('economic_intelligence_offers_pickable_only') };
}
