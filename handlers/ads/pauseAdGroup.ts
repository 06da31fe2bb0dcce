import type { Handler } from '../../generated/handler.js';
import { moveGroup } from './group-moves.js';

/** POST /ad_groups/{id}/pause */
export const pauseAdGroup: Handler<'pauseAdGroup'> = async ({ path }, ctx) => moveGroup(ctx, path.id, 'pause');
