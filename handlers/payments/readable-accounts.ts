// The accounts whose payments a caller may read when it names none. A user token must be a team member holding
// the scope somewhere: a buyer's own token is not served for native payment reads (seed, Authentication point 6).
import type { Knex } from 'knex';
import { forbidden } from '../../runtime/errors.js';
import { roleScopes } from '../../runtime/auth.js';
import type { HandlerContext } from '../../runtime/handler.js';

/** Narrows `query` on `column` to the accounts where the caller holds `scope`; a user token holding it nowhere is a 403. */
export async function whereReadable(ctx: HandlerContext, query: Knex.QueryBuilder, column: string, scope: string): Promise<void> {
  if (ctx.principal.kind !== 'user_token') {
    query.whereIn(column, ctx.access.visibleAccountIds());
    return;
  }
  const memberships = await ctx.db('team_members')
    .where({ user_id: ctx.principal.userId!, status: 'active' })
    .select('account_id', 'role', 'permissions');
  const granting = memberships.filter((m) => roleScopes(m.role, m.permissions).has(scope)).map((m) => m.account_id as string);
  if (granting.length === 0) {
    throw forbidden(`Reading payments needs ${scope} on an account (a team member's token or the account's API key); a buyer's own token is not served`);
  }
  query.whereIn(column, ctx.db('accounts').select('id').whereIn('id', granting).orWhereIn('parent_id', granting));
}
