import type { Handler } from '../../generated/handler.js';
import { moveStatus } from './promo-code-status.js';

/** POST /promo_codes/{id}/activate */
export const activatePromoCode: Handler<'activatePromoCode'> = async ({ path }, ctx) => moveStatus(ctx, path.id, 'activate');
