import type { Handler } from '../../runtime/handler.js';
import { loadOwned } from '../products/catalogue-access.js';
import { promoCodeView } from './promo-code-view.js';

/** GET /promo_codes/{id} (archived codes included). */
export const retrievePromoCode: Handler<'retrievePromoCode'> = async ({ path }, ctx) =>
  promoCodeView(await loadOwned(ctx, 'promo_codes', 'promo code', path.id, 'promo_code:basic:read'));
