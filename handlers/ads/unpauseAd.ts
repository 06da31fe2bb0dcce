import type { Handler } from '../../generated/handler.js';
import { moveAd } from './group-moves.js';

/** POST /ads/{id}/unpause */
export const unpauseAd: Handler<'unpauseAd'> = async ({ path }, ctx) => moveAd(ctx, path.id, 'unpause');
