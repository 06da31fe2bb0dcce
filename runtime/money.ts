// Money objects as the seed defines them: integer minor units with the currency's exponent. Declared views
// (generated/resources.ts) and handlers build them here.

/** A money object as the spec's Money schema has it (the generated type is the same shape). */
export interface Money {
  /** in minor units of the currency */
  amount: number;
  /** lowercase ISO 4217 code */
  currency: string;
  /** the currency's minor-unit exponent */
  decimals: number;
  /** the decimals to show when displaying it */
  display_decimals: number;
}

/** ISO 4217's minor-unit exponent of every currency whose exponent is not 2 (list one, 2025); every other code has 2.
 * ISO's, not one processor's: Stripe charges MGA as zero-decimal (ISO: 2) and keeps backward-compatible rules for
 * ISK, HUF, TWD and UGX amounts; a client reading `decimals` needs no such list. The funds and metals ISO gives no
 * minor unit (XAU, XDR...) keep 2: amounts in hundredths of the unit. */
export const CURRENCY_EXPONENTS: ReadonlyMap<string, number> = new Map([
  ...['bif', 'clp', 'djf', 'gnf', 'isk', 'jpy', 'kmf', 'krw', 'pyg', 'rwf', 'ugx', 'uyi', 'vnd', 'vuv', 'xaf', 'xof', 'xpf'].map((c) => [c, 0] as const),
  ...['bhd', 'iqd', 'jod', 'kwd', 'lyd', 'omr', 'tnd'].map((c) => [c, 3] as const),
  ...['clf', 'uyw'].map((c) => [c, 4] as const),
]);

export const currencyDecimals = (currency: string): number => CURRENCY_EXPONENTS.get(currency.toLowerCase()) ?? 2;

export function money(amount: number, currency = 'usd'): Money {
  const c = currency.toLowerCase();
  const decimals = currencyDecimals(c);
  return { amount, currency: c, decimals, display_decimals: decimals };
}
