// Written by hand, not declared plain: stores nothing: it computes the tax of each line.
import type { Handler } from '../../generated/handler.js';
import { invalid, notFound } from '../../runtime/errors.js';
import { calculateTax } from '../shared/tax.js';
import { money } from '../../runtime/money.js';
import type { PaymentQuote } from '../../generated/types.js';

/** POST /payment_quotes: the tax a buyer in `country` would pay on each line, and the totals. Nothing is stored. */
export const createPaymentQuote: Handler<'createPaymentQuote'> = async ({ body }, ctx) => {
  if (body.lines.length === 0) throw invalid('A quote needs at least one line', 'lines');
  const ids = [...new Set(body.lines.map((l) => l.plan_id))];
  const plans = await ctx.db('plans as v').join('products as p', 'p.id', 'v.product_id')
    .whereIn('v.id', ids).where('v.account_id', body.account_id).whereNull('v.deleted_at').whereNull('p.deleted_at')
    .select('v.id', 'v.currency', 'v.initial_price');
  const byId = new Map(plans.map((p) => [p.id as string, p]));
  const lines: PaymentQuote['lines'] = [];
  for (const [i, line] of body.lines.entries()) {
    const plan = byId.get(line.plan_id);
    if (!plan) throw notFound('variant', line.plan_id, `lines[${i}].plan_id`);
    if (plan.currency !== byId.get(body.lines[0].plan_id)!.currency) {
      throw invalid('Every line of a quote must be in one currency', `lines[${i}].plan_id`);
    }
    const tax = await calculateTax(ctx.db, { amount: Number(plan.initial_price) * line.quantity, currency: plan.currency, country: body.country });
    lines.push({ plan_id: plan.id, quantity: line.quantity, tax_rate: tax.tax_rate, subtotal: tax.subtotal, tax_amount: tax.tax_amount, total: tax.total });
  }
  const currency = lines[0].subtotal.currency;
  const sum = (pick: (l: PaymentQuote['lines'][number]) => { amount: number }) => lines.reduce((n, l) => n + pick(l).amount, 0);
  return {
    account_id: body.account_id,
    country: body.country,
    currency,
    lines,
    subtotal: money(sum((l) => l.subtotal), currency),
    tax_amount: money(sum((l) => l.tax_amount), currency),
    total: money(sum((l) => l.total), currency),
  };
};
