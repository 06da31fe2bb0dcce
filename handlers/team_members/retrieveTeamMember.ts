import type { Handler } from '../../generated/handler.js';
import { findTeamMember } from './find-team-member.js';
import { resources } from '../../generated/resources.js';

/** GET /team_members/{id}: team_member:read on its account, or the member's own user. */
export const retrieveTeamMember: Handler<'retrieveTeamMember'> = async ({ path }, ctx) =>
  resources.TeamMember.view(await findTeamMember(ctx, path.id, { scope: 'team_member:read', selfAllowed: true }));
