// Money in requests and for people: decimal amounts older versions sent, and display text. Money objects are
// built by runtime/money.ts (declared views use it too).
import type { Money } from '../../generated/types.js';
import { invalid } from '../../runtime/errors.js';
import { decimalText, minorUnits } from '../../runtime/decimal-money.js';
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

/** A percentage with at most two decimals (12.5, 0.07, "1.13") as an integer of basis points (1250, 7, 113), read
 * exactly from its shortest decimal text (a JSON number 1.13 is the double nearest 1.13, whose text is "1.13"), never
 * multiplied as a float (0.07 x 100 is 7.000000000000001); null when it has more decimals. */
export const basisPointsOf = (percent: number | string): number | null => minorUnits(percent, 2);

/** "12.34 USD": a money object for people (receipts, the sandbox's pages). */
export const formatMoney = (m: Money): string => `${decimalText(m)} ${m.currency.toUpperCase()}`;
