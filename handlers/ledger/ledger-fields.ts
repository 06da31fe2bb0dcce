// LedgerAccount fields only code can say (spec/areas/ledgers.yaml), from the row's statement.
import type { CurrencyBalance } from '../../generated/types.js';
import { money } from '../../runtime/money.js';

import type { LedgerAccountRow } from '../../generated/rows.js';

/** `$balances`: [currency, bucket, amount] triples (null without postings) -> one breakdown per currency, USD first
 * and always present. */
export function currencyBalancesOf(row: LedgerAccountRow): CurrencyBalance[] {
  const triples = (row.$balances ?? []) as [string, string, number | string][];
  const currencies = [...new Set(['usd', ...triples.map(([c]) => c).sort()])];
  return currencies.map((currency) => {
    const of = (bucket: string) => money(Number(triples.find(([c, b]) => c === currency && b === bucket)?.[2] ?? 0), currency);
    return { currency, available: of('available'), pending: of('pending'), in_transit: of('in_transit') };
  });
}
