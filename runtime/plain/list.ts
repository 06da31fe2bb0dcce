// A plain list: one statement over the resource and its relations, narrowed to the named account or to every
// account where the scope is held, filtered by the declared tests (and the hook's), paged by keyset; the fill (if
// declared) computes its fields over the page's views.
import type { Handler, OperationTypes } from '../handler.js';
import { applyFilters, keyedWalk, type Filter } from '../filters.js';
import { whereOwned } from '../ownership.js';
import { paginate } from '../pagination.js';
import type { Fill, ListHook } from './hooks.js';
import { selectRows, type Row, type StoredResource } from './stored-resource.js';

type Item<Op extends OperationTypes> = Op['output'] extends { data: (infer V)[] } ? V : never;

export interface Sort {
  /** the column (table.column; a column of the resource's own table, read back from its rows for cursors) */
  column: string;
  kind: 'timestamp' | 'integer' | 'text';
}

export interface PlainList<Op extends OperationTypes> {
  scope: string;
  /** the query parameter naming one account (`account: query.<name>`), or null */
  accountParam: string | null;
  accountColumn: string;
  /** the 403 for a user token holding the scope nowhere; absent: an empty list */
  heldNowhere?: string;
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

export function plainList<Op extends OperationTypes>(resource: StoredResource<Item<Op>>, options: PlainList<Op>): Handler<Op> {
  const defaultSort = Object.keys(options.sorts)[0];
  return async (input, ctx) => {
    const query = input.query as Record<string, any>;
    const fill = options.fill?.(input.query, ctx);
    const q = selectRows(ctx.db, resource);
    const account = options.accountParam ? query[options.accountParam] : undefined;
    await whereOwned(ctx.access, q, options.accountColumn, options.scope, account, options.heldNowhere);
    applyFilters(q, query, options.filters);
    await options.hook?.(q, input.query, ctx);
    const sort = options.sorts[options.sortParam ? query[options.sortParam] : defaultSort];
    const { rows, page_info } = await paginate<Row & { id: string }>(q, query, {
      defaultSize: ctx.defaultPageSize,
      direction: options.directionParam ? query[options.directionParam] : 'desc',
      sortColumn: sort.column,
      sortKind: sort.kind,
      idColumn: options.idColumn,
      walk: keyedWalk(query, options.filters),
    });
    const data = rows.map(resource.view);
    if (fill && data.length) await fill(data, rows);
    return { data, page_info } as Op['output'];
  };
}
