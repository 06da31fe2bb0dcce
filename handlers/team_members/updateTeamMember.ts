import type { Handler } from '../../generated/handler.js';
import { nowMs } from '../shared/now.js';
import { invalid } from '../../runtime/errors.js';
import { findTeamMember } from './find-team-member.js';
import { permissionsFor, requireGrantable } from './role-rules.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';

/** PATCH /team_members/{id}: changes the role or a custom role's permissions. */
export const updateTeamMember: Handler<'updateTeamMember'> = async ({ path, body }, ctx) => {
  const row = await findTeamMember(ctx, path.id, { scope: 'team_member:manage', forUpdate: true });
  if (body.role === undefined && body.permissions === undefined) return resources.TeamMember.view(row);
  if (row.role === 'owner') {
    throw invalid('The owner\'s role cannot be changed; ownership is transferred, not edited', body.role !== undefined ? 'role' : 'permissions');
  }
  const role = body.role ?? row.role;
  // A custom role keeps its permissions unless new ones are sent; leaving custom drops them.
  const kept = role === 'custom' && row.role === 'custom' ? row.permissions : undefined;
  const permissions = permissionsFor(role, body.permissions ?? kept);
  await requireGrantable(ctx.access, row.account_id, row.role, row.permissions);
  await requireGrantable(ctx.access, row.account_id, role, permissions);

  await ctx.db('team_members').where({ id: row.id }).update({ role, permissions, updated_at: nowMs(ctx.db) });
  const member = await readView(ctx.db, resources.TeamMember, row.id);
  await ctx.emit('team_member.updated', row.account_id, member);
  return member;
};
