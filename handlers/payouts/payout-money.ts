// Payout money: decimal strings in the currency's major unit on the wire, integer minor units everywhere else; fees
// are basis points of the amount, rounded half up, plus a fixed part, in integer arithmetic.
import { invalid } from '../../runtime/errors.js';
import { currencyDecimals } from '../../runtime/money.js';
import { decimalText, minorUnits } from '../../runtime/decimal-money.js';

/** "25.00" in usd -> 2500; a 400 naming `param` for more decimals than the currency has. */
export function parseAmount(text: string, currency: string, param = 'amount'): number {
  const minor = minorUnits(text, currencyDecimals(currency));
  if (minor === null) throw invalid(`${param} must be a decimal amount with at most ${currencyDecimals(currency)} decimals in ${currency}`, param);
  return minor;
}

export const formatAmount = (minor: number, currency: string): string =>
  decimalText({ amount: minor, decimals: currencyDecimals(currency) });

/** round(amount x bps / 10000), halves up, plus fixed: exact for any safe integer amount. */
export function feeOf(amount: number, bps: number, fixed: number): number {
  const scaled = BigInt(amount) * BigInt(bps);
  return Number((scaled + 5_000n) / 10_000n) + fixed;
}

/** Basis points as a decimal percentage: 150 -> "1.5", 0 -> "0". */
export function percentageOf(bps: number): string {
  const whole = (bps - (bps % 100)) / 100;
  const rest = (bps % 100).toString().padStart(2, '0').replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : String(whole);
}
