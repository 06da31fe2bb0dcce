// Loading a team member for an operation on it: invisible accounts are 404 (never leaked), visible ones without
// the scope 403. A user may act on their own membership where the operation allows it.
import { forbidden, notFound } from '../../runtime/errors.js';
import type { HandlerContext } from '../../runtime/handler.js';
import { isSelf } from '../users/user-view.js';
import { teamMemberRows, type TeamMemberRow } from './team-member-view.js';

export interface FindOptions {
  scope: string;
  /** the member's own user passes without the scope */
  selfAllowed?: boolean;
  /** lock the row for the rest of the request's transaction */
  forUpdate?: boolean;
}

export async function findTeamMember(ctx: HandlerContext, id: string, options: FindOptions): Promise<TeamMemberRow> {
  const q = teamMemberRows(ctx.db).where('tm.id', id);
  if (options.forUpdate) q.forUpdate('tm');
  const row: TeamMemberRow | undefined = await q.first();
  if (!row) throw notFound('team member', id, 'id');
  if (options.selfAllowed && isSelf(ctx.principal, row.user_id)) return row;
  const held = await ctx.access.scopesOn(row.account_id);
  if (!held) throw notFound('team member', id, 'id');
  if (!held.has(options.scope)) throw forbidden(`This credential lacks the ${options.scope} permission on ${row.account_id}`);
  return row;
}
