// Account fields only code can say (spec/areas/accounts.yaml table.columns), from the account's statement.
import type { AccountBalance } from '../../generated/types.js';
import { money } from '../../runtime/money.js';
import type { AccountRow } from '../../generated/rows.js';

/** The USD buckets the statement read from ledger_balances (`$balance`: bucket -> amount, null without postings):
 * an account without postings has zero in every bucket. */
export function balanceOf(row: AccountRow): AccountBalance {
  // json_object_agg of bucket -> amount (spec/areas/accounts.yaml)
  const sums = (row.$balance ?? {}) as Record<string, number | string>;
  const of = (bucket: string) => money(Number(sums[bucket] ?? 0));
  return { available: of('available'), pending: of('pending'), in_transit: of('in_transit') };
}
