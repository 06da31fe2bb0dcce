import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { teamMemberRows, teamMemberView, type TeamMemberRow } from './team-member-view.js';

/** GET /team_members: the runtime has checked team_member:read on account_id. Newest first. */
export const listTeamMembers: Handler<'listTeamMembers'> = async ({ query }, ctx) => {
  const q = teamMemberRows(ctx.db).where('tm.account_id', query.account_id);
  if (query.role) q.where('tm.role', query.role);
  if (query.status) q.where('tm.status', query.status);
  const { rows, page_info } = await paginate<TeamMemberRow>(q, query, {
    sortColumn: 'tm.created_at', idColumn: 'tm.id', direction: 'desc', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map(teamMemberView), page_info };
};
