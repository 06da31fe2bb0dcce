// The sandbox's one rate table, fx_rates (migrations/241_swaps.ts): each currency's value in USD as an exact integer
// over 10^8 (1 GBP = 1.27 USD: 127000000). Swaps (handlers/swaps/fx.ts) and a payment's usd_total read it here and
// convert with it in BigInt arithmetic: no binary float touches a rate or an amount. Read once per process and kept
// until a change to the table is notified (migrations/495_fx_rates_cached.ts), like the other reference tables.
import type { Knex } from 'knex';
import { currencyDecimals } from '../../runtime/money.js';
import { query } from '../../runtime/request-db.js';
import { cachesFor } from '../../runtime/shared-cache.js';
import { andThen, type Eventually } from '../../runtime/eventually.js';

export const RATE_SCALE = 100_000_000n; // 10^8

const RATES = 'select currency, usd_rate_e8 from fx_rates order by currency';

/** currency (lowercase) -> USD per unit, times 10^8, in the table's order. Shared between requests: never change it. */
export const usdRates = (db: Knex): Eventually<ReadonlyMap<string, bigint>> =>
  cachesFor(db).topics.reference.load(RATES, async () =>
    new Map((await query<{ currency: string; usd_rate_e8: string }>(db, RATES, [])).map((r) => [r.currency, BigInt(r.usd_rate_e8)])));

/** The currency's USD rate times 10^8; undefined when the table has no rate for it. */
export const usdRateOf = (db: Knex, currency: string): Eventually<bigint | undefined> =>
  andThen(usdRates(db), (rates) => rates.get(currency.toLowerCase()));

/** n / d rounded half up (halves away from zero), d > 0. */
export function divideHalfUp(n: bigint, d: bigint): bigint {
  const magnitude = n < 0n ? -n : n;
  const q = (magnitude * 2n + d) / (2n * d);
  return n < 0n ? -q : q;
}

const pow10 = (e: number) => 10n ** BigInt(e);

/** `amount` minor units of `currency` in USD minor units at `usdRateE8`, rounded half up:
 * amount x rate x 10^usd decimals / (10^8 x 10^currency decimals), exact (15.50 GBP at 1.27 = 19.685 -> 19.69). */
export const usdMinorUnits = (amount: number, currency: string, usdRateE8: bigint): number =>
  Number(divideHalfUp(BigInt(amount) * usdRateE8 * pow10(currencyDecimals('usd')), RATE_SCALE * pow10(currencyDecimals(currency))));
