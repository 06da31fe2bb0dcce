// Money objects as the seed defines them: integer minor units with the currency's exponent.
import type { Money } from '../../generated/types.js';

const ZERO_DECIMAL = new Set(['jpy', 'krw', 'vnd', 'clp', 'isk', 'ugx', 'xaf', 'xof']);

export function money(amount: number, currency = 'usd'): Money {
  const c = currency.toLowerCase();
  const decimals = ZERO_DECIMAL.has(c) ? 0 : 2;
  return { amount, currency: c, decimals, display_decimals: decimals };
}

/** "12.34 USD": a money object for people (receipts, the sandbox's pages). */
export const formatMoney = (m: Money): string =>
  `${(m.amount / 10 ** m.decimals).toFixed(m.decimals)} ${m.currency.toUpperCase()}`;
