import type { Handler } from '../../runtime/handler.js';
import type { ResolutionCenterCaseSummaryTotal as Total } from '../../generated/types.js';
import { whereOwned } from '../../runtime/ownership.js';
import { money } from '../../runtime/money.js';

const STATUS_ORDER = ['awaiting_merchant', 'awaiting_customer', 'awaiting_platform', 'closed'];
const OUTCOME_ORDER = [null, 'refunded', 'merchant_won', 'disputed', 'withdrawn', 'closed'];

/** GET /resolution_center_cases/summary: counts and sums by status, outcome and currency, from the totals the
 * database keeps (migrations/331_summary_totals.ts): a few rows per group, however many cases the accounts had. */
export const resolutionCenterCaseSummary: Handler<'resolutionCenterCaseSummary'> = async ({ query }, ctx) => {
  const q = ctx.db('resolution_center_case_totals').select('status', 'outcome', 'currency').sum({ count: 'count' })
    .sum({ amount: 'amount' }).groupBy('status', 'outcome', 'currency').havingRaw('sum(count) <> 0');
  await whereOwned(ctx.access, q, 'account_id', 'payment:dispute:read', query.account_id);
  const rows = (await q) as unknown as { status: string; outcome: string | null; currency: string; count: string; amount: string }[];
  const totals: Total[] = rows
    .sort((a, b) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status)
      || OUTCOME_ORDER.indexOf(a.outcome) - OUTCOME_ORDER.indexOf(b.outcome) || a.currency.localeCompare(b.currency))
    .map((r) => ({ status: r.status as Total['status'], outcome: r.outcome as Total['outcome'], count: Number(r.count),
      amount: money(Number(r.amount), r.currency) }));
  return { object: 'resolution_center_case_summary', totals };
};
