// Whose balance a deposit (or swap) names: an account (biz_), reached with a scope on it as everywhere else, or a
// user's personal wallet (user_), reached only with that user's own token. Invisible is a 404 naming `param`. The
// rule is the runtime's (runtime/plain/row-owner.ts), which the plain retrieves and lists of swaps and deposits
// (plain.owner) apply too.
import type { HandlerContext } from '../../generated/handler.js';
import { callersOwn, requireOwner } from '../../runtime/plain/row-owner.js';

/** A personal wallet's id is its user's. */
const USER_PREFIX = 'user_';

export async function requireDestination(ctx: HandlerContext, id: string, scope: string, param: string,
  noun = id.startsWith(USER_PREFIX) ? 'user' : 'account', shownId = id): Promise<void> {
  await requireOwner(ctx.access, id, [scope], USER_PREFIX, { noun, id: shownId, param });
}

/** The named balance, else the caller's own: an API key's account, a user token's wallet. */
export function ownBalanceOr(ctx: HandlerContext, id: string | undefined): string {
  return id || (callersOwn(ctx.principal) as string);
}
