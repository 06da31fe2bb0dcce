import type { Handler } from '../../generated/handler.js';
import { nowMs } from '../shared/now.js';
import { notFound } from '../../runtime/errors.js';
import { transition } from '../../generated/state-machine.js';
import { isSelf } from '../users/index.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';

/** POST /team_members/{id}/accept: the invitee joins the team; to anyone else the invitation does not exist. */
export const acceptTeamInvitation: Handler<'acceptTeamInvitation'> = async ({ path }, ctx) => {
  const row = await ctx.db('team_members').where({ id: path.id }).forUpdate().first('id', 'user_id', 'account_id', 'status');
  if (!row || !isSelf(ctx.principal, row.user_id)) throw notFound('team member', path.id, 'id');
  const status = transition('TeamMember', row.status, 'accept');

  await ctx.db('team_members').where({ id: row.id })
    .update({ status, accepted_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
  await ctx.db('notifications')
    .where({ user_id: row.user_id, type: 'team_invitation', read_at: null })
    .whereRaw("data->>'team_member_id' = ?", [row.id])
    .update({ read_at: nowMs(ctx.db) });
  const member = await readView(ctx.db, resources.TeamMember, row.id);
  await ctx.emit('team_member.accepted', row.account_id, member);
  return member;
};
