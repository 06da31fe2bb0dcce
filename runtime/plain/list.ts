// A plain list: one statement over the resource and its relations, narrowed to the named account or to every
// account where the scope is held (or to the rows of the parent the path names, or to the calling user's own rows,
// or to one owner's: ./row-owner.ts),
// filtered by the declared tests (and the hook's), paged by keyset; the fill (if declared) computes its fields over
// the page's views.
import type { Knex } from 'knex';
import type { Handler, HandlerContext, OperationTypes } from '../handler.js';
import { applyFilters, keyedWalk, type Filter } from '../filters.js';
import { ownedPage } from '../ownership.js';
import { holdColumn } from '../index-catalog.js';
import { paginate, type Leading } from '../pagination.js';
import type { Fill, ListHook } from './hooks.js';
import { loadOwnedOrOwn, type OwnRowsSpec } from './own-rows.js';
import { whereOwner, type RowOwnerSpec } from './row-owner.js';
import { selectRows, viewReadHolds, type Row, type StoredResource } from './stored-resource.js';

type Item<Op extends OperationTypes> = Op['output'] extends { data: (infer V)[] } ? V : never;

export interface Sort {
  /** the column (table.column; a column of the resource's own table, read back from its rows for cursors) */
  column: string;
  kind: 'timestamp' | 'integer' | 'text';
}

/** `plain.parent`: the list is the rows of one object, named by the path's {id} (GET /cases/{id}/events). */
export interface ParentOf {
  resource: StoredResource<unknown>;
  /** the listed table's column naming the parent (table.column) */
  column: string;
}

export interface PlainList<Op extends OperationTypes> {
  /** the one scope (none with own.only) */
  scope: string | null;
  /** the query parameter naming one account (`account: query.<name>`), or null */
  accountParam: string | null;
  accountColumn: string;
  /** the 403 for a user token holding the scope nowhere; absent: an empty list */
  heldNowhere?: string;
  /** the parent, read as its plain retrieve reads it (404, 403 with `scope`, or `own`), whose rows are listed */
  parent?: ParentOf;
  /** how a user reaches rows as their own (plain.own; own.only: only their own rows are listed); with a parent, the
   * parent's user */
  own?: OwnRowsSpec;
  /** the rows of one owner, an account or a user, named by a column (plain.owner) */
  owner?: RowOwnerSpec;
  filters: Filter[];
  /** by name, the default first */
  sorts: Record<string, Sort>;
  /** the query parameter choosing the sort (order) and the direction, when the operation takes them */
  sortParam: string | null;
  directionParam: string | null;
  idColumn: string;
  hook?: ListHook<Op>;
  fill?: Fill<Item<Op>, Op['input']['query']>;
}

/** Whether the list's rows are only rendered (no fill reads them) and the cursor's columns (the sort's and the id's)
 * are among those the view reads: then its rows are read for the view alone (StoredResource.viewSelect). */
function onlyViewed<Op extends OperationTypes>(resource: StoredResource<unknown>, options: PlainList<Op>, sort: Sort): boolean {
  const own = (column: string) => (column.startsWith(`${resource.table}.`) ? column.slice(resource.table.length + 1) : undefined);
  return !options.fill && viewReadHolds(resource, [own(sort.column), own(options.idColumn)]);
}

export function plainList<Op extends OperationTypes>(resource: StoredResource<Item<Op>>, options: PlainList<Op>): Handler<Op> {
  const defaultSort = Object.keys(options.sorts)[0];
  const reads = new Map(Object.entries(options.sorts).map(([name, sort]) => [name, onlyViewed(resource, options, sort) ? 'view' as const : 'row' as const]));
  return async (input, ctx) => {
    const query = input.query as Record<string, any>;
    const fill = options.fill?.(input.query, ctx);
    const sortName = options.sortParam ? query[options.sortParam] : defaultSort;
    const q = selectRows(ctx.db, resource, reads.get(sortName) ?? 'row');
    const sort = options.sorts[sortName];
    const walk = keyedWalk(query, options.filters);
    const { parent, leading } = await narrow(q, input, ctx, options, resource.table, walk ? undefined : sort.column);
    applyFilters(q, query, options.filters);
    await options.hook?.(q, input.query, ctx, parent);
    const { rows, page_info } = await paginate<Row & { id: string }>(q, query, {
      defaultSize: ctx.defaultPageSize,
      direction: options.directionParam ? query[options.directionParam] : 'desc',
      sortColumn: sort.column,
      sortKind: sort.kind,
      idColumn: options.idColumn,
      walk,
      leading,
    });
    const data = rows.map(resource.view);
    if (fill && data.length) await fill(data, rows);
    return { data, page_info } as Op['output'];
  };
}

/** The rows the caller may list: the parent's (its row is returned), the caller's own (own.only), one owner's
 * (owner), or those of the named account or of every account where the scope is held. The parent or the account
 * named leads the page when `ledBy`, the sort column, has an index right after its column (index-catalog.ts). */
async function narrow<Op extends OperationTypes>(q: Knex.QueryBuilder, input: Op['input'], ctx: HandlerContext,
  options: PlainList<Op>, table: string, ledBy: string | undefined): Promise<{ parent?: Row; leading?: Leading }> {
  const scopes = options.scope ? [options.scope] : [];
  const { parent, own, owner } = options;
  if (parent) {
    const id = (input.path as { id: string }).id;
    const row = await loadOwnedOrOwn(ctx, parent.resource, id, scopes, own);
    return { parent: row, leading: await holdColumn(ctx.db, q, parent.column, ledBy, row.id) };
  }
  if (own?.only) {
    const principal = ctx.principal;
    if (principal.kind === 'user_token' && principal.userId) q.where(`${table}.${own.user}`, principal.userId);
    else q.whereRaw('false');
    return {};
  }
  const query = input.query as Record<string, any>;
  if (owner) {
    await whereOwner(q, query, ctx, scopes, owner);
    return {};
  }
  const account = options.accountParam ? query[options.accountParam] : undefined;
  // A walked filter is ordered right after the account by its own index: there the account stays an equality.
  const leading = await ownedPage(ctx, q, options.accountColumn, ledBy, options.scope!, account, options.heldNowhere);
  return { leading };
}
