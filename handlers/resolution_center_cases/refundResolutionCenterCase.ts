// Written by hand, not declared plain: its attachments are checked before the case is found (a bad one is a 400 even on an unknown or unreachable case), and a plain action finds the row before its hook runs.
import type { Handler } from '../../generated/handler.js';
import { ApiError } from '../../runtime/errors.js';
import { transition } from '../../generated/state-machine.js';
import { refuseChargedBack, createPendingRefund, refundableRemaining } from '../refunds/index.js';
import { lockOwnedCase, moveCase, checkAttachments } from './case-steps.js';

/**
 * POST /resolution_center_cases/{id}/refund: a pending refund of what remains of the payment (the same refund
 * POST /payments/{id}/refund makes, settled by the refund job), and the case closes refunded. The payment is locked
 * before the case (lockOwnedCase), as refund settlement and the chargeback steps lock it.
 */
export const refundResolutionCenterCase: Handler<'refundResolutionCenterCase'> = async ({ path, body }, ctx) => {
  await checkAttachments(ctx, body.attachments);
  const { row, payment } = await lockOwnedCase(ctx, path.id, ['payment:dispute', 'payment:charge']);
  transition('ResolutionCenterCase', row.status, 'refund');
  // Refundable exactly when a refund could later settle on it (as POST /payments/{id}/refund asks).
  transition('Payment', payment.status, 'refund_partially');
  await refuseChargedBack(ctx.db, payment.id);
  const remaining = await refundableRemaining(ctx.db, payment);
  if (remaining <= 0) {
    throw new ApiError(400, 'invalid_state', 'This payment is already fully refunded (counting pending refunds)', 'refund',
      { 'x-should-retry': 'false' });
  }
  const refund = await createPendingRefund(ctx.db, payment, remaining);
  return moveCase(ctx.db, row, 'refund', { actor: 'merchant', action: 'refunded', message: body.message, attachments: body.attachments },
    'resolution_center_case.closed', { outcome: 'refunded', refund_id: refund.id });
};
