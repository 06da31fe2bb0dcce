import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { likeContaining } from '../../runtime/filters.js';
import { resources } from '../../generated/resources.js';
import { loadApp } from './load-app.js';

/** GET /apps/{id}/logs: the app's log lines (migrations/451_app_logs.ts), newest first, in keyset pages over
 * (app_id, created_at, id); the filters only thin what that index walk reads. */
export const listAppLogs: Handler<'listAppLogs'> = async ({ path, query }, ctx) => {
  const app = await loadApp(ctx, path.id, ['developer:basic:read'], 'id');
  const q = ctx.db('app_logs').where({ app_id: app.id });
  if (query.app_build_id !== undefined) q.where({ app_build_id: query.app_build_id });
  if (query.level !== undefined) q.where({ source: 'console', level: query.level });
  if (query.query !== undefined) q.whereRaw("lower(message) like ? escape '\\'", [likeContaining(query.query.toLowerCase())]);
  if (query.created_after !== undefined) q.where('created_at', '>', query.created_after);
  if (query.created_before !== undefined) q.where('created_at', '<', query.created_before);
  const { rows, page_info } = await paginate<Record<string, any> & { id: string; account_id: string }>(q, query, {
    sortColumn: 'created_at', idColumn: 'id', direction: 'desc', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map((r) => resources.AppLog.view(r as Parameters<typeof resources.AppLog.view>[0])), page_info };
};
