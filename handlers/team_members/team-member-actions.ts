// The rules of the operations on one team member that are declared plain (spec/areas/team_members.yaml): the runtime
// finds and locks the member under the owner rules (team_member:manage on its account; the member's own user where
// the operation lets them: leaving, accepting), runs the rule here, then writes, views and records what the kind does.
import type { ActionHook, DeleteHook, TransitionHook } from '../../generated/plain-hooks.js';
import type { TeamMemberRow } from '../../generated/rows.js';
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';
import { isSelf } from '../users/index.js';
import { nowMs } from '../shared/now.js';
import { permissionsFor, requireGrantable } from './role-rules.js';

/** The invitee's unread invitation notification for this membership. */
const unreadInvitation = (db: Knex, member: TeamMemberRow) => db('notifications')
  .where({ user_id: member.user_id, type: 'team_invitation', read_at: null })
  .whereRaw("data->>'team_member_id' = ?", [member.id]);

/** PATCH /team_members/{id} (plain action): changes the role or a custom role's permissions; team_member.updated is
 * recorded whenever either is sent, and nothing happens when neither is. */
export const update: ActionHook<'updateTeamMember'> = async (member, { body }, ctx) => {
  if (body.role === undefined && body.permissions === undefined) return { unchanged: true };
  if (member.role === 'owner') {
    throw invalid('The owner\'s role cannot be changed; ownership is transferred, not edited', body.role !== undefined ? 'role' : 'permissions');
  }
  const role = body.role ?? member.role;
  // A custom role keeps its permissions unless new ones are sent; leaving custom drops them.
  const kept = role === 'custom' && member.role === 'custom' ? member.permissions : undefined;
  const permissions = permissionsFor(role, body.permissions ?? kept);
  await requireGrantable(ctx.access, member.account_id, member.role, member.permissions);
  await requireGrantable(ctx.access, member.account_id, role, permissions);

  await ctx.db('team_members').where({ id: member.id }).update({ role, permissions, updated_at: nowMs(ctx.db) });
};

/** DELETE /team_members/{id} (plain delete; the member's own user may leave or decline): never the owner, and only by
 * someone holding every scope the member's role holds. */
export const remove: DeleteHook<'removeTeamMember'> = async (member, _input, ctx) => {
  if (member.role === 'owner') throw invalid('The account owner cannot be removed from the team', 'id');
  if (!isSelf(ctx.principal, member.user_id)) await requireGrantable(ctx.access, member.account_id, member.role, member.permissions);
  // A withdrawn invitation must not linger in the invitee's feed as something to accept.
  await unreadInvitation(ctx.db, member).delete();
};

/** POST /team_members/{id}/accept (plain transition of the invitee's own invitation): once the member is active, the
 * invitation's notification is marked read. */
export const accept: TransitionHook<'acceptTeamInvitation'> = (member, _input, ctx) => ({
  after: async () => {
    await unreadInvitation(ctx.db, member).update({ read_at: nowMs(ctx.db) });
  },
});
