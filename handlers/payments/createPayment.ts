// Written by hand, not declared plain: money: prices and writes a charge with its holds, 3-D Secure step and collection job (charge.ts).
import type { Handler } from '../../generated/handler.js';
import { insertCharge } from './charge.js';
import { resolveSource } from './payment-source.js';
import { priceOf } from './pricing.js';

/**
 * POST /payments: prices the charge (with its promo code's discount) and writes it (charge.ts: the holds, whether a
 * 3-D Secure step is needed, the insert and the collection job, in the request's transaction). A saved-card charge
 * without promo code on an unlimited variant takes nothing: no query beyond the source with its price, and the insert.
 */
export const createPayment: Handler<'createPayment'> = async ({ body }, ctx) => {
  const source = await resolveSource(ctx, body);
  const price = await priceOf(ctx.db, body, source.buyerUserId, source.variant);
  return insertCharge(ctx.db, {
    accountId: body.account_id, source, price, capture: body.capture, offSession: body.off_session, returnUrl: body.return_url,
    saveMethod: body.save_payment_method, promoParam: body.promo_code !== undefined ? 'promo_code' : 'promo_code_id',
    taxCountry: price.planId ? body.country ?? null : null,
  });
};
