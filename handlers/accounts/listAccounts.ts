// Written by hand, not declared plain: ordering or bounding by volume needs stats:read on every account the filters
// match (a check over the matched rows), and the views are made as the caller sees each account (account-view.ts).
import type { Knex } from 'knex';
import type { Handler, HandlerContext } from '../../generated/handler.js';
import type { ListAccountsInput } from '../../generated/types.js';
import { forbidden } from '../../runtime/errors.js';
import { paginate } from '../../runtime/pagination.js';
import { holdColumn } from '../../runtime/index-catalog.js';
import { accountViews, viewOptions } from './account-view.js';
import { selectRows } from '../../runtime/plain/stored-resource.js';
import type { AccountRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';
import { likeContaining } from '../../runtime/filters.js';

type Query = ListAccountsInput['query'];
type SortKind = 'created_at' | 'volume';

/**
 * Volume ordering and bounds need stats:read on "the parent account": parent_account_id when given, else the
 * API key's own account. A user token without parent_account_id has no single parent, so it needs stats:read
 * on every account the other filters match.
 */
async function requireVolumeAccess(ctx: HandlerContext, query: Query, matched: Knex.QueryBuilder): Promise<void> {
  if (query.order !== 'volume' && query.volume_min === undefined && query.volume_max === undefined) return;
  const p = ctx.principal;
  if (query.parent_account_id) return ctx.access.require(query.parent_account_id, ['stats:read'], 'parent_account_id');
  if (p.kind !== 'user_token') return ctx.access.require(p.accountId!, ['stats:read']);
  const holding = ctx.db('accounts').select('id');
  await ctx.access.whereHolds(holding, 'id', 'stats:read');
  const without = await matched.clone().whereNotIn('accounts.id', holding).first();
  if (without) {
    throw forbidden(`Ordering or filtering by volume needs the stats:read permission on every listed account; ${without.id} lacks it `
      + '(narrow the list, or pass parent_account_id)');
  }
}

/** GET /accounts */
export const listAccounts: Handler<'listAccounts'> = async ({ query }, ctx) => {
  const sort: SortKind = query.order === 'volume' ? 'volume' : 'created_at';
  if (query.parent_account_id) await ctx.access.require(query.parent_account_id, ['payout:account:read'], 'parent_account_id');

  // Accounts the caller may list: where it holds company:balance:read (an API key without it was refused already).
  const q = selectRows(ctx.db, resources.Account);
  await ctx.access.whereHolds(q, 'accounts.id', 'company:balance:read');
  const sortColumn = sort === 'volume' ? 'accounts.lifetime_volume_usd' : 'accounts.created_at';
  // A parent's accounts by age lead the page with the parent (accounts_created_at_id_index serves the lists across
  // parents). By volume the parent stays an equality: as a range beside the volume bounds' range, PostgreSQL misjudged
  // both and sorted every account in the bounds (test/large_tables/accounts-by-volume.test.ts).
  const leading = query.parent_account_id
    ? await holdColumn(ctx.db, q, 'accounts.parent_id', sort === 'created_at' ? sortColumn : undefined, query.parent_account_id) : undefined;
  if (query.status) q.where('accounts.status', query.status);
  if (query.query) {
    const text = query.query;
    q.where((w) => w.whereRaw(`lower(accounts.title) like lower(?) escape '\\'`, [likeContaining(text)]).orWhere('accounts.id', text));
  }
  if (query.created_after) q.where('accounts.created_at', '>', query.created_after);
  if (query.created_before) q.where('accounts.created_at', '<', query.created_before);
  await requireVolumeAccess(ctx, query, q);
  // Bounds are dollars and the column is whole cents: multiply in numeric so 0.29 means exactly 29 cents, then round
  // inwards to a bigint (v >= x is v >= ceil(x) for an integer v), so the column is compared as it is indexed.
  if (query.volume_min !== undefined) q.whereRaw('accounts.lifetime_volume_usd >= ceil(?::numeric * 100)::bigint', [String(query.volume_min)]);
  if (query.volume_max !== undefined) q.whereRaw('accounts.lifetime_volume_usd <= floor(?::numeric * 100)::bigint', [String(query.volume_max)]);

  const { rows, page_info } = await paginate<AccountRow>(q, query, {
    defaultSize: ctx.defaultPageSize,
    direction: query.direction,
    sortColumn,
    idColumn: 'accounts.id',
    leading,
    sortKind: sort === 'volume' ? 'integer' : 'timestamp',
  });
  return { data: await accountViews(ctx.db, ctx.access, rows, viewOptions(ctx)), page_info };
};
