// A plain transition: the row (locked) if the caller may act on it (or, with `own`, is the row's user:
// ./own-rows.ts), the state machine's check of the move (a 400 invalid_state), the hook's rule, then one statement
// setting the state, the stamped timestamps, the hook's columns and updated_at; the view (with its fill), the hook's
// after step, and the declared event in the same transaction.
// With sameStateUnchanged, a move to the state the row is already in answers it as it is: no write, no event.
import type { Handler, OperationTypes } from '../handler.js';
import { transition } from '../state-machine.js';
import type { Fill, Finder, TransitionHook } from './hooks.js';
import type { OwnRowsSpec } from './own-rows.js';
import { loadPlainRow } from './load-row.js';
import { readRow, type Row, type StoredResource } from './stored-resource.js';

export interface PlainTransition<Op extends OperationTypes> {
  scopes: readonly string[];
  /** the state machine (spec state_machines) and the transition of it made */
  machine: string;
  action: string;
  table: string;
  /** the column of the machine's field */
  column: string;
  /** timestamp columns set to now with the state */
  stamps: readonly string[];
  sameStateUnchanged: boolean;
  /** how the row's own user reaches it (plain.own) */
  own?: OwnRowsSpec;
  /** how the row is found, when code says it (plain.find) */
  find?: Finder;
  emits?: string;
  hook?: TransitionHook<Op>;
  fill?: Fill<Op['output'], Op['input']['query']>;
}

export function plainTransition<Op extends OperationTypes>(resource: StoredResource<Op['output']>,
  options: PlainTransition<Op>): Handler<Op> {
  return async (input, ctx) => {
    const fill = options.fill?.(input.query ?? {}, ctx);
    const id = (input.path as { id: string }).id;
    const row = await loadPlainRow(ctx, resource, id, options, 'lock');
    const view = async (r: Row) => {
      const v = resource.view(r);
      await fill?.([v], [r]);
      return v;
    };
    const to = transition(options.machine, row[options.column], options.action);
    if (options.sameStateUnchanged && to === row[options.column]) return view(row);
    const step = await options.hook?.(row, input, ctx);
    const now = ctx.db.raw("date_trunc('milliseconds', now())");
    const stamps = Object.fromEntries(options.stamps.map((c) => [c, now]));
    const [updated] = await ctx.db(options.table).where({ id: row.id })
      .update({ [options.column]: to, ...stamps, ...step?.set, updated_at: now }).returning('*');
    const fresh = resource.bareRows ? updated as Row : await readRow(ctx.db, resource, row.id);
    const answer = await view(fresh!);
    await step?.after?.(answer);
    if (options.emits) await ctx.emit(options.emits, row.account_id, answer);
    return answer;
  };
}
