// Money objects as the seed defines them: integer minor units with the currency's exponent. Declared views
// (generated/resources.ts) and handlers build them here.
import type { Money } from '../generated/types.js';

const ZERO_DECIMAL = new Set(['jpy', 'krw', 'vnd', 'clp', 'isk', 'ugx', 'xaf', 'xof']);

export const currencyDecimals = (currency: string): number => (ZERO_DECIMAL.has(currency.toLowerCase()) ? 0 : 2);

export function money(amount: number, currency = 'usd'): Money {
  const c = currency.toLowerCase();
  const decimals = currencyDecimals(c);
  return { amount, currency: c, decimals, display_decimals: decimals };
}
