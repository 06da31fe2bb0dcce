import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { userFor, type UserRow } from './user-view.js';

/** The query as a LIKE prefix pattern in which the caller's % and _ (and the escape itself) match literally. */
const likePrefix = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** GET /users: username or name prefix search, ordered by username, optionally within one account's team. */
export const searchUsers: Handler<'searchUsers'> = async ({ query }, ctx) => {
  const pattern = likePrefix(query.query);
  const q = ctx.db('users').where((w) => w
    .whereRaw("lower(username) like ? escape '\\'", [pattern])
    .orWhereRaw("lower(name) like ? escape '\\'", [pattern]));
  if (query.account_id) {
    q.whereIn('id', ctx.db('team_members').select('user_id').where({ account_id: query.account_id, status: 'active' }));
  }
  const { rows, page_info } = await paginate<UserRow & { id: string }>(q, query, {
    sortColumn: 'username', sortKind: 'text', direction: 'asc', defaultSize: ctx.defaultPageSize,
  });
  const data = [];
  for (const row of rows) data.push(await userFor(ctx.db, row, ctx.principal)); // only the caller's own row reads more
  return { data, page_info };
};
