// Written by hand, not declared plain: not a page but the fees of one payment, in one answer, read after the
// payment's own access check (find-payment.ts).
import type { Handler } from '../../generated/handler.js';
import { money } from '../../runtime/money.js';
import { findPayment } from './find-payment.js';

/** GET /payments/{id}/fees: the fees recorded when the payment was collected (none before). */
export const listPaymentFees: Handler<'listPaymentFees'> = async ({ path }, ctx) => {
  await findPayment(ctx, path.id, 'payment:basic:read');
  const rows = await ctx.db('payment_fees').where({ payment_id: path.id }).orderBy('id');
  return {
    data: rows.map((r) => ({
      type: r.type,
      origin: r.origin,
      label: r.label,
      description: r.description,
      amount: money(Number(r.amount), r.currency),
      settlement_amount: money(Number(r.settlement_amount), r.settlement_currency),
      collected_at: r.collected_at,
    })),
  };
};
