// Whose balance a deposit (or swap) names: an account (biz_), reached with a scope on it as everywhere else, or a
// user's personal wallet (user_), reached only with that user's own token. Invisible is a 404 naming `param`.
import { forbidden, notFound } from '../../runtime/errors.js';
import type { HandlerContext } from '../../generated/handler.js';
import { sideAccess } from '../transfers/index.js';

export async function requireDestination(ctx: HandlerContext, id: string, scope: string, param: string,
  noun = id.startsWith('user_') ? 'user' : 'account', shownId = id): Promise<void> {
  const access = await sideAccess(ctx.access, id, scope);
  if (access === 'invisible') throw notFound(noun, shownId, param);
  if (access === 'forbidden') throw forbidden(`This credential lacks the ${scope} permission on ${id}`);
}

/** The named balance, else the caller's own: an API key's account, a user token's wallet. */
export function ownBalanceOr(ctx: HandlerContext, id: string | undefined): string {
  if (id) return id;
  const p = ctx.principal;
  return (p.kind === 'api_key' ? p.accountId : p.userId) as string;
}
