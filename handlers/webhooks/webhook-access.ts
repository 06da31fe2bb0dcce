// Which subscriptions a caller may touch: invisible accounts' subscriptions do not exist for it (404); visible ones
// need the scope on their account (403).
import type { Knex } from 'knex';
import { forbidden, notFound } from '../../runtime/errors.js';
import { roleScopes } from '../../runtime/auth.js';
import type { HandlerContext } from '../../runtime/handler.js';
import type { WebhookRow } from './webhook-view.js';

type WebhookScope = 'webhook:read' | 'webhook:manage';

export async function loadWebhook(ctx: HandlerContext, id: string, scope: WebhookScope): Promise<WebhookRow> {
  const query = ctx.db('webhooks').where({ id }).first();
  const row = scope === 'webhook:manage' ? await query.forUpdate() : await query;
  const held = row ? await ctx.access.scopesOn(row.account_id) : null;
  if (!row || !held) throw notFound('webhook', id, 'id');
  if (!held.has(scope)) throw forbidden(`This credential lacks the ${scope} permission on ${row.account_id}`);
  return row;
}

/**
 * Narrows `query` (over webhooks) to the accounts on which the caller holds `scope`. An API key's scopes are the
 * same on every account it sees (the runtime has checked them); a user's depend on their role on each account, and
 * as in Access, a role on an account also covers its connected accounts.
 * (It adds a where clause rather than returning the subquery: a knex builder is thenable, so an async function
 * returning one would run it.)
 */
export async function whereScopeHeld(ctx: HandlerContext, query: Knex.QueryBuilder, scope: WebhookScope): Promise<void> {
  if (ctx.principal.kind !== 'user_token') {
    query.whereIn('account_id', ctx.access.visibleAccountIds());
    return;
  }
  const memberships = await ctx.db('team_members')
    .where({ user_id: ctx.principal.userId!, status: 'active' })
    .select('account_id', 'role', 'permissions');
  const granting = memberships.filter((m) => roleScopes(m.role, m.permissions).has(scope)).map((m) => m.account_id as string);
  query.whereIn('account_id', ctx.db('accounts').select('id').whereIn('id', granting).orWhereIn('parent_id', granting));
}
