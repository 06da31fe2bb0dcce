// Who reaches a submission: its worker always (their own), the bounty's account with the operation's scopes.
import type { HandlerContext } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { readRow, type Row } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';

export const loadSubmission = (ctx: HandlerContext, id: string, scopes: string[], forUpdate = false): Promise<Row> =>
  loadOwned(ctx, resources.BountySubmission, id, scopes, {
    forUpdate, ownRows: { isOwn: (row) => row.user_id === ctx.principal.userId, own: 'pass' },
  });

/** The worker's own live submission (404 for anyone else, who is not told it exists), locked. */
export async function lockOwnSubmission(ctx: HandlerContext, id: string): Promise<Row> {
  const row = await readRow(ctx.db, resources.BountySubmission, id, true);
  if (!row || row.user_id !== ctx.principal.userId) throw notFound('bounty submission', id, 'id');
  return row;
}
