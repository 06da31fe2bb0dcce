// A plain summary: counts and sums of money from a totals table (migrations/support/totals.ts), grouped by the
// declared key columns and currency, for the account asked for or every account where the caller holds the scope.
// It reads the totals' delta rows, never the resources themselves, so its cost follows the number of groups.
import type { Handler, OperationTypes } from '../handler.js';
import { whereOwned } from '../ownership.js';
import { money } from '../money.js';

export interface SummaryKey {
  /** the total's field and the totals table's column */
  field: string;
  /** the field's values in the order totals are listed (a nullable field's null first) */
  order: readonly (string | null)[];
}

export interface PlainSummary {
  scope: string;
  accountParam: string;
  /** the totals table: key columns, currency, count and amount */
  table: string;
  /** the response's `object` */
  object: string;
  keys: readonly SummaryKey[];
}

export function plainSummary<Op extends OperationTypes>(options: PlainSummary): Handler<Op> {
  const { scope, accountParam, table, object, keys } = options;
  const columns = [...keys.map((k) => k.field), 'currency'];
  return async (input, ctx) => {
    const q = ctx.db(table).select(columns).sum({ count: 'count' }).sum({ amount: 'amount' })
      .groupBy(columns).havingRaw('sum(count) <> 0');
    await whereOwned(ctx.access, q, 'account_id', scope, (input.query as Record<string, string | undefined>)[accountParam]);
    const rows = (await q) as Record<string, string | null>[];
    rows.sort((a, b) => {
      for (const k of keys) {
        const by = k.order.indexOf(a[k.field]) - k.order.indexOf(b[k.field]);
        if (by) return by;
      }
      return a.currency!.localeCompare(b.currency!);
    });
    const totals = rows.map((r) => ({
      ...Object.fromEntries(keys.map((k) => [k.field, r[k.field]])),
      count: Number(r.count),
      amount: money(Number(r.amount), r.currency!),
    }));
    return { object, totals } as unknown as Op['output'];
  };
}
