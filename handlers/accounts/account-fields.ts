// Account fields only code can say (spec/areas/accounts.yaml table.columns), from the account's statement.
import type { AccountBalance } from '../../generated/types.js';
import { money } from '../../runtime/money.js';

type Row = Record<string, any>;

/** The USD buckets the statement read from ledger_balances (`$balance`: bucket -> amount, null without postings):
 * an account without postings has zero in every bucket. */
export function balanceOf(row: Row): AccountBalance {
  const sums: Record<string, number> = row.$balance ?? {};
  const of = (bucket: string) => money(Number(sums[bucket] ?? 0));
  return { available: of('available'), pending: of('pending'), in_transit: of('in_transit') };
}
