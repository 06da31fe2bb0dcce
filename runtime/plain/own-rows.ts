// `plain.own` of a retrieve, a list or a transition: a row names its user in a column, and that user (by their own user token) reaches it
// otherwise than through its account's scopes: without them, or as a 403 rather than the 404 of an account they
// cannot see, or (only) as the one caller who reaches it at all.
import { forbidden, notFound } from '../errors.js';
import type { HandlerContext } from '../handler.js';
import { readRow, type Row, type RowRead, type StoredResource } from './stored-resource.js';
import { loadOwned } from '../ownership.js';

export interface OwnRowsSpec {
  /** the column naming the row's user */
  user: string;
  /** the row's user on an account they cannot see gets this 403 instead of the 404 (they know the row exists);
   * absent: the row's user reads it without the operation's scopes */
  refused?: string;
  /** only the row's user reaches it: anyone else gets the 404 an unknown id gets, whatever their scopes */
  only?: boolean;
}

/** Whether the caller is the row's user, by their own user token. */
const isOwnRow = (own: OwnRowsSpec, ctx: HandlerContext) => (row: Row): boolean =>
  ctx.principal.kind === 'user_token' && row[own.user] !== null && row[own.user] === ctx.principal.userId;

/** The row by id (locked for the request's transaction when asked), if the caller may reach it with `scopes` or,
 * with `own`, as its own user (runtime/ownership.ts): every plain kind that reads one row loads it here. */
export async function loadOwnedOrOwn(ctx: HandlerContext, resource: StoredResource<unknown>, id: string,
  scopes: readonly string[], own: OwnRowsSpec | undefined, read: RowRead = 'row'): Promise<Row> {
  if (!own) return loadOwned(ctx, resource, id, scopes, { read });
  const isOwn = isOwnRow(own, ctx);
  if (own.only) {
    const row = await readRow(ctx.db, resource, id, read);
    if (!row || !isOwn(row)) throw notFound(resource.noun, id, 'id');
    return row;
  }
  const refused = own.refused;
  return loadOwned(ctx, resource, id, scopes, { read, ownRows: { isOwn, own: refused ? () => forbidden(refused) : 'pass' } });
}
