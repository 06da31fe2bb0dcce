// A file belongs to the caller that created it: an API key's account, or a user token's user. Nobody else sees it.
import type { Knex } from 'knex';
import type { HandlerContext } from '../../runtime/handler.js';
import { ApiError, notFound } from '../../runtime/errors.js';
import type { FileRow } from './file-view.js';

export function ownerColumns(ctx: HandlerContext): { owner_account_id: string | null; owner_user_id: string | null } {
  const p = ctx.principal;
  return p.kind === 'user_token'
    ? { owner_account_id: null, owner_user_id: p.userId }
    : { owner_account_id: p.accountId, owner_user_id: null };
}

/** The caller's own file (locked for the request's transaction when asked), else a 404. */
export async function loadOwnFile(ctx: HandlerContext, id: string, forUpdate = false): Promise<FileRow> {
  const q = ctx.db('files').where({ id, ...ownerColumns(ctx) }).first() as Knex.QueryBuilder;
  if (forUpdate) q.forUpdate();
  const row = await q;
  if (!row) throw notFound('file', id);
  return row as FileRow;
}

/** A file named by a request field (an artifact, a logo, an attachment): the caller's own and ready, else a 404 or a
 * 400 naming `param`. */
export async function readyOwnFile(ctx: HandlerContext, id: string, param: string): Promise<FileRow> {
  const file = await loadOwnFile(ctx, id)
    .catch((e) => { throw e instanceof ApiError && e.status === 404 ? notFound('file', id, param) : e; });
  if (file.status !== 'ready') throw new ApiError(400, 'invalid_state', `The file ${id} is not uploaded yet (status ${file.status})`, param);
  return file;
}
