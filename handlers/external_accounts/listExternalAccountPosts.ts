import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { loadOwned } from '../../runtime/ownership.js';
import { notFound } from '../../runtime/errors.js';
import { resources } from '../../generated/resources.js';

/** GET /external_accounts/{id}/posts: the profile's posts, newest first, in keyset pages over
 * (external_account_id, created_at, id). */
export const listExternalAccountPosts: Handler<'listExternalAccountPosts'> = async ({ path, query }, ctx) => {
  const account = await loadOwned(ctx, resources.ExternalAccount, path.id, ['social_account:read']);
  if (query.account_id !== undefined && query.account_id !== account.account_id) {
    throw notFound(resources.ExternalAccount.noun, path.id);
  }
  const q = ctx.db('external_account_posts').where({ external_account_id: account.id });
  if (query.post_id !== undefined) q.where({ id: query.post_id });
  if (query.media_type !== undefined) q.where({ media_type: query.media_type });
  const { rows, page_info } = await paginate<Record<string, any> & { id: string; account_id: string }>(q, query, {
    sortColumn: 'created_at', idColumn: 'id', direction: 'desc', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map((r) => resources.ExternalAccountPost.view(r)), page_info };
};
