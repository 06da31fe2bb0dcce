import type { Handler } from '../../generated/handler.js';
import { findPayment } from './find-payment.js';
import { resources } from '../../generated/resources.js';
import { createReceipt } from './receipts.js';

/** POST /payments/{id}/generate_pdf: a receipt PDF behind an unguessable URL valid for one hour. */
export const generatePaymentPdf: Handler<'generatePaymentPdf'> = async ({ path }, ctx) => {
  const payment = await findPayment(ctx, path.id, 'payment:basic:read');
  const seller = await ctx.db('accounts').where({ id: payment.account_id }).first('title');
  return createReceipt(ctx.db, resources.Payment.view(payment), seller.title);
};
