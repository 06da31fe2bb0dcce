import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { isSelf } from '../users/index.js';
import { findTeamMember } from './find-team-member.js';
import { requireGrantable } from './role-rules.js';
import { resources } from '../../generated/resources.js';

/** DELETE /team_members/{id}: removes a member or withdraws an invitation; users may remove themselves. */
export const removeTeamMember: Handler<'removeTeamMember'> = async ({ path }, ctx) => {
  const row = await findTeamMember(ctx, path.id, { scope: 'team_member:manage', selfAllowed: true, forUpdate: true });
  if (row.role === 'owner') throw invalid('The account owner cannot be removed from the team', 'id');
  if (!isSelf(ctx.principal, row.user_id)) await requireGrantable(ctx.access, row.account_id, row.role, row.permissions);

  await ctx.db('team_members').where({ id: row.id }).delete();
  // A withdrawn invitation must not linger in the invitee's feed as something to accept.
  await ctx.db('notifications')
    .where({ user_id: row.user_id, type: 'team_invitation', read_at: null })
    .whereRaw("data->>'team_member_id' = ?", [row.id])
    .delete();
  // Like other deletions, the event carries the object as it was.
  await ctx.emit('team_member.deleted', row.account_id, resources.TeamMember.view(row));
  return { id: row.id, deleted: true };
};
