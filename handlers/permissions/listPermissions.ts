// Written by hand, not declared plain: not a table's rows but the scope catalogue, each with whether the caller holds
// it on a resource.
import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { specData } from '../../generated/spec-data.js';
import { resolveResource } from './resource-kinds.js';

/** GET /permissions: every scope of the catalogue, each with whether the caller holds it on the resource (on the
 * account that owns it). A resource of an account the caller cannot see is not found, like an unknown one. */
export const listPermissions: Handler<'listPermissions'> = async ({ query }, ctx) => {
  const resource = await resolveResource(ctx.db, query.resource_id, 'resource_id');
  const held = await ctx.access.scopesOn(resource.accountId);
  if (!held) throw notFound(resource.kind.noun, query.resource_id, 'resource_id');
  return { data: specData.scopes.map((action) => ({ action, granted: held.has(action) })) };
};
