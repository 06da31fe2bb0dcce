import type { DeleteHook } from '../../generated/plain-hooks.js';
import { nowMs } from '../shared/now.js';

/** DELETE /ad_groups/{id} (plain soft delete): its ads go with it. */
export const deleteAdGroup: DeleteHook<'deleteAdGroup'> = async (group, _input, ctx) => {
  await ctx.db('ads').where({ ad_group_id: group.id }).whereNull('deleted_at')
    .update({ deleted_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
};
