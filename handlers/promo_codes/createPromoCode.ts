import type { CreateHook } from '../../generated/plain-hooks.js';
import { checkDiscount, checkExpiry, checkRestrictions } from './promo-code-rules.js';

/** POST /promo_codes (plain create; the runtime has checked promo_code:create on account_id): the discount, expiry
 * and restrictions are checked, and the code is stored upper-cased; a code the account has is the declared 409. */
export const createPromoCode: CreateHook<'createPromoCode'> = async (body, ctx) => {
  checkDiscount(body);
  checkExpiry(body.expires_at);
  await checkRestrictions(ctx.db, body);
  return { code: body.code.toUpperCase() };
};
