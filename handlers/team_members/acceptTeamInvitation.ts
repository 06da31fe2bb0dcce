import type { TransitionHook } from '../../generated/plain-hooks.js';
import { nowMs } from '../shared/now.js';

/** POST /team_members/{id}/accept (plain transition of the invitee's own invitation): once the member is active, the
 * invitation's notification is marked read. */
export const acceptTeamInvitation: TransitionHook<'acceptTeamInvitation'> = (row, _input, ctx) => ({
  after: async () => {
    await ctx.db('notifications')
      .where({ user_id: row.user_id, type: 'team_invitation', read_at: null })
      .whereRaw("data->>'team_member_id' = ?", [row.id])
      .update({ read_at: nowMs(ctx.db) });
  },
});
