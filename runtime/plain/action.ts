// A plain action: an operation on one row that is not a declared state move, whose rule is all in its hook (a
// capture, a retry, a rotation). The runtime finds and locks the row with the owner rules (or, with `own`, as its
// user's: ./own-rows.ts), hands it to the hook, then reads the row again as the hook left it and answers its view
// (with its fill); the hook's after step and the declared event follow, in the same transaction (no event when the
// hook says it changed nothing).
import type { Handler, OperationTypes } from '../handler.js';
import type { ActionHook, Fill, Finder } from './hooks.js';
import { loadPlainRow } from './load-row.js';
import type { OwnRowsSpec } from './own-rows.js';
import { readRow, type StoredResource } from './stored-resource.js';

export interface PlainAction<Op extends OperationTypes> {
  scopes: readonly string[];
  /** how the row's own user reaches it (plain.own) */
  own?: OwnRowsSpec;
  /** how the row is found, when code says it (plain.find) */
  find?: Finder;
  emits?: string;
  hook: ActionHook<Op>;
  fill?: Fill<Op['output'], Op['input']['query']>;
}

export function plainAction<Op extends OperationTypes>(resource: StoredResource<Op['output']>,
  options: PlainAction<Op>): Handler<Op> {
  return async (input, ctx) => {
    const fill = options.fill?.(input.query ?? {}, ctx);
    const id = (input.path as { id: string }).id;
    const row = await loadPlainRow(ctx, resource, id, options, 'lock');
    const step = await options.hook(row, input, ctx);
    const fresh = await readRow(ctx.db, resource, row.id);
    if (!fresh) throw new Error(`${resource.name} ${row.id} vanished in its own action`);
    const answer = resource.view(fresh);
    await fill?.([answer], [fresh]);
    await step?.after?.(answer);
    if (options.emits && !step?.unchanged) await ctx.emit(options.emits, row.account_id, answer);
    return answer;
  };
}
