// Which buyer-facing rows (memberships, setup intents) a caller may read: those of every visible account on which
// it holds the read scope, plus, for a user token, the user's own rows as a buyer. Shared by memberships and
// setup intents.
import type { Knex } from 'knex';
import { forbidden, notFound } from '../../runtime/errors.js';
import type { HandlerContext } from '../../runtime/handler.js';

export interface RowOwner {
  account_id: string;
  user_id: string | null;
}

const isBuyer = (ctx: HandlerContext, row: RowOwner) =>
  ctx.principal.kind === 'user_token' && row.user_id !== null && row.user_id === ctx.principal.userId;

/**
 * Narrows `query` to readable rows. With `accountId`, to that account: all its rows where the scope is held, else a
 * user token's own rows there (a buyer may narrow to a shop); 404 for an account that does not exist or that an API
 * key cannot see (403 for one it sees without the scope).
 */
export async function whereReadable(ctx: HandlerContext, query: Knex.QueryBuilder, scope: string,
  columns: { account: string; user: string }, accountId?: string): Promise<void> {
  const userId = ctx.principal.kind === 'user_token' ? ctx.principal.userId : null;
  if (accountId) {
    const held = await ctx.access.scopesOn(accountId);
    query.where(columns.account, accountId);
    if (held?.has(scope)) return;
    if (userId && (await ctx.db('accounts').where({ id: accountId }).first('id'))) {
      query.where(columns.user, userId);
      return;
    }
    if (held) throw forbidden(`This credential lacks the ${scope} permission on ${accountId}`);
    throw notFound('account', accountId, 'account_id');
  }
  const granting = ctx.db('accounts').select('accounts.id');
  await ctx.access.whereHolds(granting, 'accounts.id', scope);
  query.where((w) => {
    w.whereIn(columns.account, granting);
    if (userId) w.orWhere(columns.user, userId);
  });
}

/** 404 unless the caller may read the row (the scope on its account, or its buyer's own token); 403 when it sees
 * the account but lacks the scope. */
export async function requireReadable(ctx: HandlerContext, row: RowOwner | undefined, scope: string, what: string, id: string): Promise<void> {
  if (row && isBuyer(ctx, row)) return;
  const held = row ? await ctx.access.scopesOn(row.account_id) : null;
  if (!row || !held) throw notFound(what, id, 'id');
  if (!held.has(scope)) throw forbidden(`This credential lacks the ${scope} permission on ${row.account_id}`);
}

/** 404 when the caller cannot see the row's account; 403 without `scope` there (buyers do not manage their rows). */
export async function requireManageable(ctx: HandlerContext, row: RowOwner | undefined, scope: string, what: string, id: string): Promise<void> {
  const held = row ? await ctx.access.scopesOn(row.account_id) : null;
  if (!row || !held) {
    if (row && isBuyer(ctx, row)) throw forbidden(`A buyer cannot change their own ${what}; the account's ${scope} permission is needed`);
    throw notFound(what, id, 'id');
  }
  if (!held.has(scope)) throw forbidden(`This credential lacks the ${scope} permission on ${row.account_id}`);
}
