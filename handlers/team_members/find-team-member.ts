// Loading a team member for an operation on it (runtime/ownership.ts: invisible accounts are 404, visible ones
// without the scope 403). A user may act on their own membership where the operation allows it.
import type { HandlerContext } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import type { TeamMemberRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';
import { isSelf } from '../users/index.js';

export interface FindOptions {
  scope: string;
  /** the member's own user passes without the scope */
  selfAllowed?: boolean;
  /** lock the row for the rest of the request's transaction */
  forUpdate?: boolean;
}

export function findTeamMember(ctx: HandlerContext, id: string, options: FindOptions): Promise<TeamMemberRow> {
  return loadOwned(ctx, resources.TeamMember, id, [options.scope], {
    forUpdate: options.forUpdate,
    ownRows: options.selfAllowed ? { isOwn: (row) => isSelf(ctx.principal, row.user_id), own: 'pass' } : undefined,
  });
}
