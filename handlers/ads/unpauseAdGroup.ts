import type { Handler } from '../../generated/handler.js';
import { moveGroup } from './group-moves.js';

/** POST /ad_groups/{id}/unpause */
export const unpauseAdGroup: Handler<'unpauseAdGroup'> = async ({ path }, ctx) => moveGroup(ctx, path.id, 'unpause');
