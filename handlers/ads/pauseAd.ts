import type { Handler } from '../../generated/handler.js';
import { moveAd } from './group-moves.js';

/** POST /ads/{id}/pause */
export const pauseAd: Handler<'pauseAd'> = async ({ path }, ctx) => moveAd(ctx, path.id, 'pause');
