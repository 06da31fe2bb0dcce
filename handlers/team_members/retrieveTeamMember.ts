import type { Handler } from '../../runtime/handler.js';
import { findTeamMember } from './find-team-member.js';
import { teamMemberView } from './team-member-view.js';

/** GET /team_members/{id}: team_member:read on its account, or the member's own user. */
export const retrieveTeamMember: Handler<'retrieveTeamMember'> = async ({ path }, ctx) =>
  teamMemberView(await findTeamMember(ctx, path.id, { scope: 'team_member:read', selfAllowed: true }));
