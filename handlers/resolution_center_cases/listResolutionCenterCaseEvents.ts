import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';

/** GET /resolution_center_cases/{id}/events: the case's timeline, oldest first, in keyset pages over
 * (case_id, created_at, id). */
export const listResolutionCenterCaseEvents: Handler<'listResolutionCenterCaseEvents'> = async ({ path, query }, ctx) => {
  const c = await loadOwned(ctx, resources.ResolutionCenterCase, path.id, ['payment:dispute:read']);
  const q = ctx.db('resolution_center_case_events').where({ case_id: c.id });
  const { rows, page_info } = await paginate<Record<string, any> & { id: string; account_id: string }>(q, query, {
    sortColumn: 'created_at', idColumn: 'id', direction: query.direction, defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map((r) => resources.ResolutionCenterCaseEvent.view(r)), page_info };
};
