// The lists of campaigns, groups and ads: live rows, newest first, keyset pages on (created_at, id), then viewed.
import type { Knex } from 'knex';
import type { HandlerContext } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { selectRows, type Row, type StoredResource } from '../../runtime/plain/stored-resource.js';

export async function listPage<V>(ctx: HandlerContext, resource: StoredResource<unknown> & { table: string },
  query: Record<string, any>, narrow: (q: Knex.QueryBuilder) => Promise<void>, view: (rows: Row[]) => Promise<V[]>) {
  const q = selectRows(ctx.db, resource);
  await narrow(q);
  const { rows, page_info } = await paginate<Row>(q, query, {
    sortColumn: `${resource.table}.created_at`, idColumn: `${resource.table}.id`, direction: 'desc', defaultSize: ctx.defaultPageSize,
  });
  return { data: await view(rows), page_info };
}
