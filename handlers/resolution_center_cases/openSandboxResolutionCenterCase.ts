// Written by hand, not declared plain: a create whose account is its payment's (no body field a plain create takes it from), locking the payment first, with its attachments checked before anything is read.
import type { Handler } from '../../generated/handler.js';
import { ApiError, conflict } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { requireOwned } from '../../runtime/ownership.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { refundableRemaining } from '../refunds/index.js';
import type { PaymentRow } from '../shared/payment-row.js';
import { queueDeadline, record, checkAttachments, RESPONSE_WINDOW_SECONDS } from './case-steps.js';

const refused = (message: string) => new ApiError(400, 'invalid_state', message, 'payment_id', { 'x-should-retry': 'false' });

/**
 * POST /sandbox/resolution_center_cases: the payment's buyer opens a case (the sandbox plays the buyer). The payment
 * is locked first, so two opens on one payment are one after the other: the second finds the first (409).
 */
export const openSandboxResolutionCenterCase: Handler<'openSandboxResolutionCenterCase'> = async ({ body }, ctx) => {
  await checkAttachments(ctx, body.attachments);
  const payment = await requireOwned(ctx.access, await readRow(ctx.db, resources.Payment, body.payment_id, 'lock'),
    ['payment:dispute'], { noun: 'payment', id: body.payment_id, param: 'payment_id' }) as PaymentRow;
  if (!['succeeded', 'partially_refunded'].includes(payment.status)) {
    throw refused(`A case is opened on a collected payment (succeeded or partially_refunded); this one is ${payment.status}`);
  }
  const dispute = await ctx.db('disputes').where({ payment_id: payment.id }).first('id');
  if (dispute) throw refused(`This payment was charged back (dispute ${dispute.id}); the buyer's bank handles it`);
  const existing = await ctx.db('resolution_center_cases').where({ payment_id: payment.id }).first('id');
  if (existing) throw conflict(`This payment already has a case (${existing.id}); the buyer answers it instead`, 'payment_id');
  const amount = await refundableRemaining(ctx.db, payment);
  if (amount <= 0) throw refused('This payment is already fully refunded (counting pending refunds)');
  const id = newId('rcc_');
  const [row] = await ctx.db('resolution_center_cases').insert({
    id, account_id: payment.account_id, payment_id: payment.id, user_id: payment.user_id, member_id: payment.member_id,
    reason: body.reason, status: 'awaiting_merchant', escalated: false, currency: payment.currency, amount,
    response_due_at: ctx.db.raw(`date_trunc('milliseconds', now()) + make_interval(secs => ?)`, [RESPONSE_WINDOW_SECONDS]),
  }).returning(['id', 'account_id', 'response_due_at']);
  await queueDeadline(ctx.db, id, row.response_due_at);
  return record(ctx.db, row, { actor: 'customer', action: 'opened', message: body.message, attachments: body.attachments }, 'resolution_center_case.created');
};
