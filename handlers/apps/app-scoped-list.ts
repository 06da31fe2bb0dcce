// Lists of one app's rows (builds, domains): the app is loaded first, so another account's app is a 404 rather than
// an empty page.
import type { Knex } from 'knex';
import type { HandlerContext } from '../../runtime/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { withCallersParam } from '../../runtime/errors.js';
import { resources } from '../../generated/resources.js';

export async function narrowToApp(rows: Knex.QueryBuilder, table: string, appId: string | undefined, ctx: HandlerContext): Promise<void> {
  if (appId === undefined) return;
  try {
    await loadOwned(ctx, resources.App, appId, ['developer:basic:read']);
  } catch (e) {
    throw withCallersParam(e, () => 'app_id');
  }
  rows.where(`${table}.app_id`, appId);
}
