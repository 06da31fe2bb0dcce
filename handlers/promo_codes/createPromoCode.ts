// Written by hand, not declared plain: a code taken by a concurrent request must be the 409, which only the insert's unique violation says.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { isUniqueViolation } from '../accounts/index.js';
import { checkCodeFree, checkDiscount, checkExpiry, checkRestrictions, codeTaken, CODE_CONSTRAINT } from './promo-code-rules.js';
import { resources } from '../../generated/resources.js';

/** POST /promo_codes: the runtime has checked promo_code:create on account_id. Codes are stored upper-cased. */
export const createPromoCode: Handler<'createPromoCode'> = async ({ body }, ctx) => {
  checkDiscount(body);
  checkExpiry(body.expires_at);
  await checkRestrictions(ctx.db, body);
  const code = body.code.toUpperCase();
  await checkCodeFree(ctx.db, body.account_id, code);
  let row;
  try {
    [row] = await ctx.db('promo_codes').insert({
      id: newId('promo_'),
      account_id: body.account_id,
      code,
      amount_off: body.amount_off ?? null,
      currency: body.currency ?? null,
      percent_off: body.percent_off ?? null,
      product_id: body.product_id ?? null,
      plan_id: body.plan_id ?? null,
      max_redemptions: body.max_redemptions ?? null,
      expires_at: body.expires_at ?? null,
    }).returning('*');
  } catch (e) {
    // Another request created the same code after the check above.
    if (isUniqueViolation(e, CODE_CONSTRAINT)) throw codeTaken(code);
    throw e;
  }
  const view = resources.PromoCode.view(row);
  await ctx.emit('promo_code.created', body.account_id, view);
  return view;
};
