// A plain create: the runtime has checked the caller's scope on the body's account (the operation's `account:`);
// the hook's checks and values, then one insert of a new id with the resource's prefix, the account, the body's
// fields in their columns (a metadata field as JSON without its null keys) and the hook's columns over them; the
// view, and the declared event in the same transaction. created_at and updated_at are the columns' defaults (now, at
// millisecond precision: migrations/support/columns.ts); a field not sent is left to its column's default.
import type { Handler, OperationTypes } from '../handler.js';
import { newId } from '../ids.js';
import { dropNulls } from '../metadata.js';
import type { CreateHook } from './hooks.js';
import { readView, type Row, type StoredResource } from './stored-resource.js';

export interface PlainCreate<Op extends OperationTypes> {
  /** the resource's id prefix */
  prefix: string;
  table: string;
  /** the body field naming the account (the operation's `account: body.<field>`) */
  accountParam: string;
  /** body field -> its column; `metadata`: written as JSON without null keys, `{}` when not sent */
  fields: Record<string, { column: string; metadata: boolean }>;
  emits?: string;
  hook?: CreateHook<Op>;
}

export function plainCreate<Op extends OperationTypes>(resource: StoredResource<Op['output']>,
  options: PlainCreate<Op>): Handler<Op> {
  return async (input, ctx) => {
    const body = input.body as NonNullable<Op['input']['body']> & Record<string, unknown>;
    const extra = options.hook ? await options.hook(body, ctx) : undefined;
    const accountId = body[options.accountParam] as string;
    const values: Record<string, unknown> = { id: newId(options.prefix), account_id: accountId };
    for (const [field, { column, metadata }] of Object.entries(options.fields)) {
      if (metadata) values[column] = JSON.stringify(dropNulls(body[field] as Record<string, unknown> | undefined));
      else if (body[field] !== undefined) values[column] = body[field];
    }
    Object.assign(values, extra);
    const [row] = await ctx.db(options.table).insert(values).returning('*') as Row[];
    const view = resource.bareRows ? resource.view(row!) : await readView(ctx.db, resource, row!.id);
    if (options.emits) await ctx.emit(options.emits, accountId, view);
    return view;
  };
}
