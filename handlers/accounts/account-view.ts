// The Account resource: one statement (the declared view, generated/resources.ts) reads accounts with their parent,
// balances and reward payouts; this adds what the caller decides (rewards, client_id) and what its version decides
// (economic_intelligence_offers), from the caller's cached access and the cached reference tables.
import type { Knex } from 'knex';
import { economicIntelligenceOffers, rewardMilestones, type OfferRow } from '../shared/reference-tables.js';
import type { Account, RewardMilestone, EconomicIntelligenceOffer } from '../../generated/types.js';
import { resources } from '../../generated/resources.js';
import type { Access } from '../../runtime/access.js';
import type { HandlerContext } from '../../generated/handler.js';
import { money } from '../../runtime/money.js';
import { clockNow } from '../../runtime/clock.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import type { AccountRow, Tables } from '../../generated/rows.js';

export type { AccountRow };

export interface ViewOptions {
  /** Versions before the economic_intelligence_offers_pickable_only flag list every offer, pickable or not. */
  allOffers?: boolean;
}

/** Offers a caller can pick now: none while Economic Intelligence is on or during its free trial. */
function offersFor(offers: readonly OfferRow[], row: AccountRow, now: number, all = false): EconomicIntelligenceOffer[] {
  const on = row.economic_intelligence_ends_at && Date.parse(row.economic_intelligence_ends_at) > now;
  const trial = row.economic_intelligence_trial_ends_at && Date.parse(row.economic_intelligence_trial_ends_at) > now;
  if (!all && (on || trial)) return [];
  return offers.map((o) => ({
    key: o.key, duration: o.duration, duration_unit: o.duration_unit, auto_renew: o.auto_renew, price: money(o.price_amount, o.currency),
  }));
}

export async function pickableOffers(db: Knex, row: AccountRow, now = clockNow().getTime()): Promise<EconomicIntelligenceOffer[]> {
  return offersFor(await economicIntelligenceOffers(db), row, now);
}

/**
 * Whether the caller may see the account's client id: its own account for an API key; for a user token, where its
 * user is an active owner or admin. A parent platform's key sees its connected accounts, not their ids.
 */
async function clientIdShown(access: Access, id: string): Promise<boolean> {
  const p = access.principal;
  if (p.kind === 'api_key') return id === p.accountId;
  return access.holdsRoleOn(id, ['owner', 'admin']);
}

async function rewardsAllowed(access: Access, accountId: string): Promise<boolean> {
  return (await access.has(accountId, 'company:balance:read')) || (await access.has(accountId, 'stats:read'));
}

/** The milestones with the account's progress (lifetime volume: handlers/accounts/lifetime-volume.ts); `$rewards`
 * (milestone -> payout status) came with its statement. A reward paid stays paid, even under the threshold again. */
function rewardsOf(row: AccountRow, milestones: readonly Tables['reward_milestones'][]): RewardMilestone[] {
  // json_object_agg of milestone -> payout status (spec/areas/accounts.yaml)
  const paid = (row.$rewards ?? {}) as Record<string, RewardMilestone['payout_status']>;
  return milestones.map((m) => {
    const qualified = row.lifetime_volume_usd >= m.threshold_usd;
    return {
      id: m.id,
      title: m.title,
      threshold: money(m.threshold_usd),
      progress: money(Math.min(row.lifetime_volume_usd, m.threshold_usd)),
      qualified,
      payout_status: paid[m.id] ?? (qualified ? 'pending' : 'not_qualified'),
    };
  });
}

/** Accounts read by the declared statement (resources.Account), as this caller sees them. */
export async function accountViews(db: Knex, access: Access, rows: AccountRow[], options: ViewOptions = {}): Promise<Account[]> {
  if (rows.length === 0) return [];
  const milestones = await rewardMilestones(db);
  const offers = await economicIntelligenceOffers(db);
  const now = clockNow().getTime();
  const views: Account[] = [];
  // One after another: the caller's access is cached per process, and a request has a single connection.
  for (const row of rows) {
    // Added to the view, not spread into a copy (V8 makes a copy's later deletes by older versions' renames slow).
    views.push(Object.assign(resources.Account.view(row), {
      rewards: (await rewardsAllowed(access, row.id)) ? rewardsOf(row, milestones) : [],
      economic_intelligence_offers: offersFor(offers, row, now, options.allOffers),
      client_id: (await clientIdShown(access, row.id)) ? row.client_id : null,
    }));
  }
  return views;
}

/** One account as this caller sees it, read in one statement (what its view and this caller's fields read:
 * resources.Account.viewById); undefined when there is none. */
export async function loadAccountView(db: Knex, access: Access, id: string, options: ViewOptions = {}): Promise<Account | undefined> {
  const row = await readRow(db, resources.Account, id, 'view');
  return row ? (await accountViews(db, access, [row], options))[0] : undefined;
}

/** How the caller's version wants accounts rendered. */
export function viewOptions(ctx: HandlerContext): ViewOptions {
  return { allOffers: !ctx.flag('economic_intelligence_offers_pickable_only') };
}
