// Whose money a payout request or payout method is: an account (the operation's scope on it, checked by the runtime
// when account_id is sent) or the caller's own user (their personal wallet: only their own user token). The side is
// what the ledger calls it (handlers/ledger/ledgers.ts).
import { forbidden, invalid } from '../../runtime/errors.js';
import type { HandlerContext } from '../../generated/handler.js';
import { isSelf } from '../users/index.js';

export interface Owner { account_id: string | null; user_id: string | null; side: string }

/** Exactly one of account_id or user_id; with neither, an API key means its own account (whose scopes the runtime
 * checked as the key's), a user token its own user. */
export function ownerOf(ctx: HandlerContext, ids: { account_id?: string; user_id?: string }): Owner {
  if (ids.account_id && ids.user_id) throw invalid('Send account_id or user_id, not both', 'user_id');
  const accountId = ids.account_id ?? (!ids.user_id && ctx.principal.kind === 'api_key' ? ctx.principal.accountId : null);
  if (accountId) return { account_id: accountId, user_id: null, side: accountId };
  const userId = ids.user_id ?? (ctx.principal.kind === 'user_token' ? ctx.principal.userId : undefined);
  if (!userId) throw invalid('Name the owner: account_id (an account) or user_id (your own wallet)', 'account_id');
  if (!isSelf(ctx.principal, userId)) throw forbidden('A personal wallet is reachable only with its user\'s own token');
  return { account_id: null, user_id: userId, side: userId };
}

/** Whether the caller may act on a row owned by an account or a user, with `scope` for an account's. */
export async function mayActOn(ctx: HandlerContext, row: { user_id: string | null; account_id: string | null }, scope: string): Promise<'yes' | 'hidden' | 'forbidden'> {
  if (row.user_id) return isSelf(ctx.principal, row.user_id) ? 'yes' : 'hidden';
  const held = await ctx.access.scopesOn(row.account_id!);
  if (!held) return 'hidden';
  return held.has(scope) ? 'yes' : 'forbidden';
}
