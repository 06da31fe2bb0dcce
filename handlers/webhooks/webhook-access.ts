// Which subscriptions a caller may touch: invisible accounts' subscriptions do not exist for it (404); visible ones
// need the scope on their account (403).
import type { Knex } from 'knex';
import { forbidden, notFound } from '../../runtime/errors.js';
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

/** Narrows `query` (over webhooks) to the accounts on which the caller holds `scope`. */
export async function whereScopeHeld(ctx: HandlerContext, query: Knex.QueryBuilder, scope: WebhookScope): Promise<void> {
  await ctx.access.whereHolds(query, 'account_id', scope);
}
