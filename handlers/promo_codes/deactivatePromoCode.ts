import type { Handler } from '../../generated/handler.js';
import { moveStatus } from './promo-code-status.js';

/** POST /promo_codes/{id}/deactivate */
export const deactivatePromoCode: Handler<'deactivatePromoCode'> = async ({ path }, ctx) => moveStatus(ctx, path.id, 'deactivate');
