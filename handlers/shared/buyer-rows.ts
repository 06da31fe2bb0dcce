// Buyer-facing rows (memberships, setup intents): a caller reads those of every visible account on which it holds
// the read scope, plus, for a user token, the user's own rows as a buyer; a buyer never manages their own rows.
// Shared by memberships and setup intents, so it lives in the areas' kernel; runtime/ownership.ts does the account checks.
import type { Knex } from 'knex';
import { forbidden, notFound } from '../../runtime/errors.js';
import type { HandlerContext } from '../../generated/handler.js';
import type { OwnRows } from '../../runtime/ownership.js';
/** A row a buyer may own: its user is the buyer. */
type BuyerRow = { account_id: string; user_id: string | null };

const isBuyer = (ctx: HandlerContext) => (row: BuyerRow): boolean =>
  ctx.principal.kind === 'user_token' && row.user_id !== null && row.user_id === ctx.principal.userId;

/** The buyer's own token reads its rows without the account's scope. */
export const buyerReads = <R extends BuyerRow>(ctx: HandlerContext): OwnRows<R> => ({ isOwn: isBuyer(ctx), own: 'pass' });

/** A buyer cannot change their own row: a 403 (they know it exists), not a 404, on an account they cannot see. */
export const buyerCannotManage = <R extends BuyerRow>(ctx: HandlerContext, what: string, scope: string): OwnRows<R> => ({
  isOwn: isBuyer(ctx),
  own: () => forbidden(`A buyer cannot change their own ${what}; the account's ${scope} permission is needed`),
});

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
