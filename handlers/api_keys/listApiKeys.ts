import type { Knex } from 'knex';
import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { apiKeyView, type ApiKeyRow } from './api-key-view.js';

type Status = 'active' | 'revoked' | 'expired';

// status is computed from revoked_at and expires_at, so the filter restates apiKeyStatus in SQL.
function whereStatus(q: Knex.QueryBuilder, status: Status, now: string): Knex.QueryBuilder {
  if (status === 'revoked') return q.whereNotNull('revoked_at');
  q.whereNull('revoked_at');
  if (status === 'expired') return q.where('expires_at', '<=', now);
  return q.where((w) => w.whereNull('expires_at').orWhere('expires_at', '>', now));
}

/** GET /api_keys: the runtime has checked api_key:read on query.account_id. */
export const listApiKeys: Handler<'listApiKeys'> = async ({ query }, ctx) => {
  let q = ctx.db('api_keys').where({ account_id: query.account_id });
  if (query.status) q = whereStatus(q, query.status, new Date().toISOString());
  const { rows, page_info } = await paginate<ApiKeyRow & { id: string }>(q, query, { defaultSize: ctx.defaultPageSize });
  return { data: rows.map((r) => apiKeyView(r)), page_info };
};
