import type { Handler } from '../../runtime/handler.js';
import { notFound } from '../../runtime/errors.js';
import { specData } from '../../generated/spec-data.js';
import { accountOfResource } from './resource-account.js';

/** GET /permissions: every scope of the catalogue, each with whether the caller holds it on the resource. */
export const listPermissions: Handler<'listPermissions'> = async ({ query }, ctx) => {
  const accountId = accountOfResource(query.resource_id, 'resource_id');
  const held = await ctx.access.scopesOn(accountId);
  if (!held) throw notFound('account', accountId, 'resource_id');
  return { data: specData.scopes.map((action) => ({ action, granted: held.has(action) })) };
};
