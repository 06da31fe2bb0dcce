import type { Handler } from '../../runtime/handler.js';
import type { DisputeSummaryTotal } from '../../generated/types.js';
import { whereOwned } from '../../runtime/ownership.js';
import { money } from '../../runtime/money.js';

const STATUS_ORDER = ['needs_response', 'under_review', 'won', 'lost', 'prevented', 'closed'];

/** GET /disputes/summary: counts and sums by status and currency, from the totals the database keeps
 * (migrations/331_summary_totals.ts): a few rows per group, however many disputes the accounts had. */
export const disputeSummary: Handler<'disputeSummary'> = async ({ query }, ctx) => {
  const q = ctx.db('dispute_totals').select('status', 'currency').sum({ count: 'count' }).sum({ amount: 'amount' })
    .groupBy('status', 'currency').havingRaw('sum(count) <> 0');
  await whereOwned(ctx.access, q, 'account_id', 'payment:dispute:read', query.account_id);
  const rows = (await q) as unknown as { status: string; currency: string; count: string; amount: string }[];
  const totals: DisputeSummaryTotal[] = rows
    .sort((a, b) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) || a.currency.localeCompare(b.currency))
    .map((r) => ({ status: r.status as DisputeSummaryTotal['status'], count: Number(r.count), amount: money(Number(r.amount), r.currency) }));
  return { object: 'dispute_summary', totals };
};
