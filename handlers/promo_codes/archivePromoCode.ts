import type { Handler } from '../../generated/handler.js';
import { moveStatus } from './promo-code-status.js';

/** DELETE /promo_codes/{id} */
export const archivePromoCode: Handler<'archivePromoCode'> = async ({ path }, ctx) => moveStatus(ctx, path.id, 'archive');
