// Lists of one app's rows (builds, domains): the app is loaded first, so another account's app is a 404 rather than
// an empty page.
import type { Knex } from 'knex';
import type { HandlerContext } from '../../generated/handler.js';
import { loadApp } from './load-app.js';

export async function narrowToApp(rows: Knex.QueryBuilder, table: string, appId: string | undefined, ctx: HandlerContext): Promise<void> {
  if (appId === undefined) return;
  await loadApp(ctx, appId, ['developer:basic:read'], 'app_id');
  rows.where(`${table}.app_id`, appId);
}
