import type { Handler } from '../../generated/handler.js';
import { finishPaymentAuthentication } from './authentication.js';
import { findPayment } from './find-payment.js';

/** POST /payments/{id}/confirm_action: the sandbox's stand-in for the buyer finishing (or failing) 3-D Secure. */
export const confirmPaymentAction: Handler<'confirmPaymentAction'> = async ({ path, body }, ctx) =>
  finishPaymentAuthentication(ctx, await findPayment(ctx, path.id, 'payment:charge', { lock: true }), body.outcome);
