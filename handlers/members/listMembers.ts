import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { whereEqual } from '../../runtime/filters.js';
import { accessLevelSql } from './access-level.js';
import { memberRows, memberView, type MemberRow } from './member-view.js';

const likeLiteral = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** GET /members: members of accounts where the caller holds member:basic:read (one, when account_id), newest first. */
export const listMembers: Handler<'listMembers'> = async ({ query }, ctx) => {
  const q = memberRows(ctx.db);
  // account_id was checked by the runtime; without it, every account where the scope is held (buyers see none).
  if (query.account_id) q.where('m.account_id', query.account_id);
  else await ctx.access.whereHolds(q, 'm.account_id', 'member:basic:read');
  whereEqual(q, query, { user_ids: 'm.user_id', status: 'm.status', statuses: 'm.status' });
  if (query.access_level) q.whereRaw(`${accessLevelSql('m.account_id', 'm.user_id')} = ?`, [query.access_level]);
  if (query.joined_after) q.where('m.joined_at', '>', query.joined_after);
  if (query.joined_before) q.where('m.joined_at', '<', query.joined_before);
  if (query.query) {
    const pattern = likeLiteral(query.query);
    q.where((w) => w.whereRaw("lower(u.username) like ? escape '\\'", [pattern])
      .orWhereRaw("lower(coalesce(u.name, '')) like ? escape '\\'", [pattern])
      .orWhereRaw("lower(u.email) like ? escape '\\'", [pattern]));
  }
  const { rows, page_info } = await paginate<MemberRow>(q, query, {
    sortColumn: 'm.created_at', idColumn: 'm.id', direction: 'desc', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map(memberView), page_info };
};
