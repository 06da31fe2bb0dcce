// An app named by a request field (app_id, blueprint_id): the ownership rules of runtime/ownership.ts, with the 404
// naming that field.
import type { HandlerContext } from '../../generated/handler.js';
import { withCallersParam } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import type { AppRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';

export const loadApp = (ctx: HandlerContext, id: string, scopes: readonly string[], param: string): Promise<AppRow> =>
  loadOwned(ctx, resources.App, id, scopes).catch((e) => { throw withCallersParam(e, () => param); });
