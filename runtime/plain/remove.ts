// A plain delete: the row (locked) if the caller may act on it (or, with `own`, is the row's user: ./own-rows.ts),
// the hook's rule, the declared cascade (rows of other tables naming it), one statement (a soft delete sets the
// table's soft_delete column; else the row is deleted), and the declared event with the resource as it was.
import type { Handler, OperationTypes } from '../handler.js';
import { query } from '../request-db.js';
import type { DeleteHook, Finder } from './hooks.js';
import { loadPlainRow } from './load-row.js';
import type { OwnRowsSpec } from './own-rows.js';
import type { StoredResource } from './stored-resource.js';

export interface PlainDelete<Op extends OperationTypes> {
  scopes: readonly string[];
  /** deletes the row whose id is $1 */
  statement: string;
  /** plain.cascade: each deletes (or soft-deletes) the rows of another table naming the row ($1, its id), in order */
  cascade?: readonly string[];
  /** how the row's own user reaches it (plain.own) */
  own?: OwnRowsSpec;
  /** how the row is found, when code says it (plain.find) */
  find?: Finder;
  emits?: string;
  hook?: DeleteHook<Op>;
}

export function plainDelete<Op extends OperationTypes>(resource: StoredResource<unknown>, options: PlainDelete<Op>): Handler<Op> {
  return async (input, ctx) => {
    const id = (input.path as { id: string }).id;
    const row = await loadPlainRow(ctx, resource, id, options, 'lock');
    await options.hook?.(row, input, ctx);
    for (const statement of options.cascade ?? []) await query(ctx.db, statement, [row.id]);
    await query(ctx.db, options.statement, [row.id]);
    if (options.emits) await ctx.emit(options.emits, row.account_id, resource.view(row));
    return { id: row.id, deleted: true } as Op['output'];
  };
}
