import type { RetrieveHook } from '../../generated/plain-hooks.js';
import { forbidden } from '../../runtime/errors.js';
import { exportScope } from './exportable.js';

/** GET /exports/{id} (plain retrieve, no scopes of its own): the export needs its resource's export scope on its
 * account, which only the row names. */
export const retrieveExport: RetrieveHook<'retrieveExport'> = async (row, _input, ctx) => {
  const scope = exportScope(row.resource);
  if (!(await ctx.access.has(row.account_id, scope))) throw forbidden(`This credential lacks the ${scope} permission on ${row.account_id}`);
};
