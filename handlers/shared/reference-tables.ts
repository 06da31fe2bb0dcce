// Small tables every request may read and an operator rarely changes (reward milestones, Economic Intelligence
// offers, tax rates, the payout rails): read once per process and kept until a change to them is notified (runtime/shared-cache.ts).
// The rows are shared between requests: read them, never change them.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { cachesFor } from '../../runtime/shared-cache.js';
import type { Eventually } from '../../runtime/eventually.js';
import type { Tables } from '../../generated/rows.js';
import type { EconomicIntelligenceOffer } from '../../generated/types.js';

const cachedRows = <Row>(sql: string) => (db: Knex): Eventually<readonly Row[]> =>
  cachesFor(db).topics.reference.load(sql, () => query<Row>(db, sql, []));

export const rewardMilestones = cachedRows<Tables['reward_milestones']>('select * from reward_milestones order by threshold_usd');
/** The offers' units are the API's (migrations/001_foundation.ts seeds them; no operation writes them). */
export type OfferRow = Omit<Tables['economic_intelligence_offers'], 'duration_unit'>
  & { duration_unit: EconomicIntelligenceOffer['duration_unit'] };

export const economicIntelligenceOffers = cachedRows<OfferRow>('select * from economic_intelligence_offers order by position');
export const supportedPayoutMethods = cachedRows<Tables['supported_payout_methods']>('select * from supported_payout_methods order by position');
const taxRates = cachedRows<Pick<Tables['tax_rates'], 'country' | 'rate_basis_points'>>('select country, rate_basis_points from tax_rates');

/** Basis points of a country's tax from tax_rates; countries not recorded there are not taxed. */
export async function taxRateOf(db: Knex, country: string): Promise<number> {
  const upper = country.toUpperCase();
  return Number((await taxRates(db)).find((r) => r.country === upper)?.rate_basis_points ?? 0);
}
