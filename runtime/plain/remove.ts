// A plain delete: the row (locked) if the caller may act on it, the hook's rule, one statement (a soft delete sets
// the table's soft_delete column; else the row is deleted), and the declared event with the resource as it was.
import type { Handler, OperationTypes } from '../handler.js';
import { loadOwned } from '../ownership.js';
import { query } from '../request-db.js';
import type { DeleteHook } from './hooks.js';
import type { StoredResource } from './stored-resource.js';

export interface PlainDelete<Op extends OperationTypes> {
  scopes: readonly string[];
  /** deletes the row whose id is $1 */
  statement: string;
  emits?: string;
  hook?: DeleteHook<Op>;
}

export function plainDelete<Op extends OperationTypes>(resource: StoredResource<unknown>, options: PlainDelete<Op>): Handler<Op> {
  return async (input, ctx) => {
    const row = await loadOwned(ctx, resource, (input.path as { id: string }).id, options.scopes, { forUpdate: true });
    await options.hook?.(row, input, ctx);
    await query(ctx.db, options.statement, [row.id]);
    if (options.emits) await ctx.emit(options.emits, row.account_id, resource.view(row));
    return { id: row.id, deleted: true } as Op['output'];
  };
}
