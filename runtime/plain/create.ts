// A plain create: the runtime has checked the caller's scope on the body's account (the operation's `account:`);
// the hook's checks and values, then one insert of a new id with the resource's prefix, the account, the body's
// fields in their columns (a metadata field as JSON without its null keys) and the hook's columns over them; the
// view, and the declared event in the same transaction. created_at and updated_at are the columns' defaults (now, at
// millisecond precision: migrations/support/columns.ts); a field not sent is left to its column's default. An insert
// breaking a declared unique constraint (a duplicate, perhaps written a moment before by another request) answers that
// constraint's declared error; the failed insert wrote nothing, and the error rolls the request's work back.
import type { Handler, OperationTypes } from '../handler.js';
import { ApiError } from '../errors.js';
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
  /** a unique constraint's name -> the error its violation answers; `{field}` in the message is the value written for it */
  unique?: Record<string, { status: number; type: string; message: string; param: string }>;
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
    let row: Row | undefined;
    try {
      [row] = await ctx.db(options.table).insert(values).returning('*') as Row[];
    } catch (e) {
      throw duplicateError(e, options, body, values) ?? e;
    }
    const view = resource.bareRows ? resource.view(row!) : await readView(ctx.db, resource, row!.id);
    if (options.emits) await ctx.emit(options.emits, accountId, view);
    return view;
  };
}

/** The declared error of the unique constraint the insert broke, its message naming the values written; else none. */
function duplicateError<Op extends OperationTypes>(e: unknown, options: PlainCreate<Op>, body: Record<string, unknown>,
  values: Record<string, unknown>): ApiError | undefined {
  const { code, constraint } = e as { code?: string; constraint?: string };
  const error = code === '23505' && constraint ? options.unique?.[constraint] : undefined;
  if (!error) return undefined;
  const written = (field: string) => {
    const column = field === options.accountParam ? 'account_id' : options.fields[field]?.column;
    return String((column !== undefined && column in values ? values[column] : body[field]) ?? '');
  };
  return new ApiError(error.status, error.type, error.message.replace(/\{([^}]*)\}/g, (_, field: string) => written(field)), error.param);
}
