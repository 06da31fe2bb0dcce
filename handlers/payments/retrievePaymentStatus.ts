import type { Handler } from '../../generated/handler.js';
import type { PaymentStatus } from '../../generated/types.js';
import { findPayment } from './find-payment.js';
import { paymentNextAction } from '../shared/authentication-link.js';

/** GET /payments/{id}/status: the payment's state alone, with the payment's access rules. Written, not plain: it answers
 * PaymentStatus, a part of the payment that is no stored resource of its own. */
export const retrievePaymentStatus: Handler<'retrievePaymentStatus'> = async ({ path }, ctx) => {
  const row = await findPayment(ctx, path.id, 'payment:basic:read');
  return {
    id: String(row.id),
    status: row.status as PaymentStatus['status'],
    next_action: paymentNextAction(row) as PaymentStatus['next_action'],
    failure_code: (row.failure_code ?? null) as PaymentStatus['failure_code'],
    failure_message: (row.failure_message ?? null) as string | null,
    updated_at: row.updated_at as string,
  };
};
