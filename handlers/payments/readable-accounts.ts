// The accounts whose payments a caller may read when it names none. A user token must be a team member holding
// the scope somewhere: a buyer's own token is not served for native payment reads (seed, Authentication point 6).
import type { Knex } from 'knex';
import { forbidden } from '../../runtime/errors.js';
import type { HandlerContext } from '../../runtime/handler.js';

/** Narrows `query` on `column` to the accounts where the caller holds `scope`; a user token holding it nowhere is a 403. */
export async function whereReadable(ctx: HandlerContext, query: Knex.QueryBuilder, column: string, scope: string): Promise<void> {
  const granting = await ctx.access.whereHolds(query, column, scope);
  if (granting === 0 && ctx.principal.kind === 'user_token') {
    throw forbidden(`Reading payments needs ${scope} on an account (a team member's token or the account's API key); a buyer's own token is not served`);
  }
}
