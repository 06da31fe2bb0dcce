// Money in requests and for people: decimal amounts older versions sent, and display text. Money objects are
// built by runtime/money.ts (declared views use it too).
import type { Money } from '../../generated/types.js';
import { invalid } from '../../runtime/errors.js';
import { minorUnits } from '../../runtime/decimal-money.js';
import { currencyDecimals } from '../../runtime/money.js';

/** A positive decimal amount in the currency's major unit (how versions before native money wrote it: 10.43) ->
 * minor units, exactly; a 400 naming `param` when it is not positive or has more decimal places than the currency. */
export function minorAmount(value: number | string, currency: string, param: string): number {
  const decimals = currencyDecimals(currency);
  const minor = minorUnits(value, decimals);
  if (minor === null) {
    throw invalid(`${param} must be an amount in ${currency.toUpperCase()} with at most ${decimals} decimal place${decimals === 1 ? '' : 's'}`, param);
  }
  if (minor <= 0) throw invalid(`${param} must be more than zero`, param);
  return minor;
}

/** "12.34 USD": a money object for people (receipts, the sandbox's pages). */
export const formatMoney = (m: Money): string =>
  `${(m.amount / 10 ** m.decimals).toFixed(m.decimals)} ${m.currency.toUpperCase()}`;
