// A file belongs to the caller that created it: an API key's account, or a user token's user. Nobody else sees it.
import type { Knex } from 'knex';
import type { HandlerContext } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
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
