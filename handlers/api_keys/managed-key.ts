// Finding a key for a management call: invisible accounts' keys do not exist for the caller (404);
// visible ones need the scope on the key's account (403).
import { forbidden, notFound } from '../../runtime/errors.js';
import type { HandlerContext } from '../../runtime/handler.js';
import type { ApiKeyRow } from './api-key-view.js';

export async function loadManagedKey(
  ctx: HandlerContext,
  id: string,
  scope: 'api_key:read' | 'api_key:manage',
): Promise<ApiKeyRow> {
  const query = ctx.db('api_keys').where({ id }).first();
  // Writes lock the row so a rotate and a revoke of the same key cannot interleave.
  const row = scope === 'api_key:manage' ? await query.forUpdate() : await query;
  const held = row ? await ctx.access.scopesOn(row.account_id) : null;
  if (!row || !held) throw notFound('API key', id, 'id');
  if (!held.has(scope)) throw forbidden(`This credential lacks the ${scope} permission on ${row.account_id}`);
  return row;
}
