// The payout rails (supported payout methods) as the API shows them, from the cached reference table.
import type { Knex } from 'knex';
import type { SupportedPayoutMethod, PayoutSpeeds, ArrivalEstimates } from '../../generated/types.js';
import { supportedPayoutMethods } from '../shared/reference-tables.js';
import { notFound } from '../../runtime/errors.js';
import { clockNow } from '../../runtime/clock.js';
import { formatAmount, percentageOf } from './payout-money.js';
import type { Tables } from '../../generated/rows.js';

export type Rail = Tables['supported_payout_methods'];
export type Speed = 'standard' | 'instant';

export async function railOf(db: Knex, id: string, param = 'supported_payout_method_id'): Promise<Rail> {
  const rail = (await supportedPayoutMethods(db)).find((r) => r.id === id);
  if (!rail) throw notFound('supported payout method', id, param);
  return rail;
}

export const offers = (rail: Rail, speed: Speed): boolean => (rail.speeds as string[]).includes(speed);

export function feeStructureOf(rail: Rail): PayoutSpeeds {
  const at = (speed: Speed) => offers(rail, speed)
    ? { percentage: percentageOf(rail[`${speed}_fee_bps`]), fixed_amount: formatAmount(Number(rail[`${speed}_fee_fixed`]), rail.currency), currency: rail.currency }
    : null;
  return { standard: at('standard'), instant: at('instant') };
}

/** When a payout requested at `from` would arrive, per speed the rail offers. */
export function arrivalsOf(rail: Rail, from = clockNow()): ArrivalEstimates {
  const at = (speed: Speed) => {
    const seconds = rail[`${speed}_arrival_seconds`];
    return offers(rail, speed) && seconds !== null ? new Date(from.getTime() + Number(seconds) * 1000).toISOString() : null;
  };
  return { standard: at('standard'), instant: at('instant') };
}

export function railView(rail: Rail): SupportedPayoutMethod {
  return {
    id: rail.id,
    object: 'supported_payout_method',
    name: rail.name,
    delivery_type: rail.delivery_type as SupportedPayoutMethod['delivery_type'], // the reference table's, the API's values
    countries: rail.countries,
    currency: rail.currency,
    supports_standard_delivery: offers(rail, 'standard'),
    supports_instant_delivery: offers(rail, 'instant'),
    fee_structure: feeStructureOf(rail),
    min_amount: formatAmount(Number(rail.min_amount), rail.currency),
    max_amount: formatAmount(Number(rail.max_amount), rail.currency),
  };
}
