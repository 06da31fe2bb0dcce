// Small tables every request may read and an operator rarely changes (reward milestones, Economic Intelligence
// offers, tax rates, the payout rails): read once per process and kept until a change to them is notified (runtime/shared-cache.ts).
// The rows are shared between requests: read them, never change them.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { cachesFor } from '../../runtime/shared-cache.js';

const cachedRows = <Row>(sql: string) => (db: Knex): Promise<readonly Row[]> =>
  cachesFor(db).topics.reference.load(sql, () => query<Row>(db, sql, []));

export const rewardMilestones = cachedRows<Record<string, any>>('select * from reward_milestones order by threshold_usd');
export const economicIntelligenceOffers = cachedRows<Record<string, any>>('select * from economic_intelligence_offers order by position');
export const supportedPayoutMethods = cachedRows<Record<string, any>>('select * from supported_payout_methods order by position');
const taxRates = cachedRows<{ country: string; rate_basis_points: number }>('select country, rate_basis_points from tax_rates');

/** Basis points of a country's tax from tax_rates; countries not recorded there are not taxed. */
export async function taxRateOf(db: Knex, country: string): Promise<number> {
  const upper = country.toUpperCase();
  return Number((await taxRates(db)).find((r) => r.country === upper)?.rate_basis_points ?? 0);
}
