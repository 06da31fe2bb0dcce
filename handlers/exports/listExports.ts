import type { ListHook } from '../../generated/plain-hooks.js';
import { forbidden } from '../../runtime/errors.js';
import { exportable } from './exportable.js';

/** GET /exports (plain list of the account the runtime found visible, no scopes of its own): only the exports of
 * resources whose export scope the caller holds there; holding none is a 403. */
export const listExports: ListHook<'listExports'> = async (rows, { account_id: accountId }, ctx) => {
  const held = await ctx.access.scopesOn(accountId);
  const readable = Object.entries(exportable).filter(([, e]) => held?.has(e.scope)).map(([name]) => name);
  if (readable.length === 0) throw forbidden(`This credential holds no export scope on ${accountId}`);
  rows.whereIn('exports.resource', readable);
};
