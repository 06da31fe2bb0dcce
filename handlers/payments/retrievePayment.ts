import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { findPayment } from './find-payment.js';

/** GET /payments/{id}: one statement reads the payment with its buyer; the access check is the caller's cache. */
export const retrievePayment: Handler<'retrievePayment'> = async ({ path }, ctx) =>
  resources.Payment.view(await findPayment(ctx, path.id, 'payment:basic:read'));
