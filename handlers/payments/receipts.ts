// Receipt PDFs: generated on demand, kept behind a secret token for an hour, and downloaded without credentials
// from GET /receipts/{token}.pdf (outside /api/v1, so no Authorization is needed; the token is the secret). The
// token is derived from the receipt's id (runtime/sealed-secrets.ts derivedSecret, like 3-D Secure step links) and
// stored only as its hash: the link can be made again from the id, which older pins' payment pdf_url shows
// (payment-fields.ts pdfUrl) while the receipt lasts.
import type { Knex } from 'knex';
import type { Context } from 'koa';
import { ApiError } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { derivedSecret } from '../../runtime/sealed-secrets.js';
import { hashSecret } from '../../runtime/credentials.js';
import type { ExtraRoute } from '../../runtime/app.js';
import type { Payment } from '../../generated/types.js';
import { receiptPdf } from './receipt-pdf.js';
import { publicBaseUrl } from '../shared/public-url.js';
import { formatMoney } from '../shared/money.js';

const RECEIPT_LIFETIME_MS = 60 * 60 * 1000;

const receiptToken = (receiptId: string) => derivedSecret('payment receipt', receiptId);

/** A receipt's download link, made again from its id. */
export const receiptUrl = (receiptId: string) => `${publicBaseUrl()}/receipts/${receiptToken(receiptId)}.pdf`;

export async function createReceipt(db: Knex, payment: Payment, seller: string): Promise<{ url: string; expires_at: string }> {
  const lines = [
    `Seller: ${seller}`,
    `Payment: ${payment.id}`,
    `Date: ${payment.created_at}`,
    `Status: ${payment.status}`,
    ...(payment.user ? [`Buyer: ${payment.user.name ?? payment.user.username}`] : []),
    ...(payment.payment_instrument ? [`Card: ${payment.payment_instrument.brand ?? 'card'} ending ${payment.payment_instrument.last4}`] : []),
    '',
    `Subtotal: ${formatMoney(payment.subtotal)}`,
    ...(payment.discount_amount.amount > 0 ? [`Discount: -${formatMoney(payment.discount_amount)}`] : []),
    `Tax: ${formatMoney(payment.tax_amount)}`,
    `Total: ${formatMoney(payment.total)}`,
    ...(payment.refunded_amount.amount > 0 ? [`Refunded: ${formatMoney(payment.refunded_amount)}`] : []),
  ];
  const id = newId('rcpt_');
  const expiresAt = new Date(Date.now() + RECEIPT_LIFETIME_MS).toISOString();
  await db('payment_receipts').insert({ id, token: hashSecret(receiptToken(id)), payment_id: payment.id, pdf: receiptPdf('Receipt', lines), expires_at: expiresAt });
  // The payment shows its newest receipt to older pins (pdf_url); the receipt is not a change of the payment's own.
  await db('payments').where({ id: payment.id }).update({ newest_receipt_id: id, newest_receipt_expires_at: expiresAt });
  return { url: receiptUrl(id), expires_at: expiresAt };
}

async function downloadReceipt(ctx: Context, db: Knex): Promise<void> {
  const token = /^([A-Za-z0-9]{32})\.pdf$/.exec(ctx.params.file ?? '')?.[1];
  const row = token ? await db('payment_receipts').where({ token: hashSecret(token) }).where('expires_at', '>', db.fn.now()).first('pdf') : null;
  if (!row) throw new ApiError(404, 'not_found', 'No such receipt, or its link has expired; generate a new one');
  ctx.type = 'application/pdf';
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = row.pdf;
}

export const receiptRoutes: ExtraRoute[] = [{ method: 'GET', path: '/receipts/:file', secretParams: ['file'], handle: downloadReceipt }];
