// Lists of one app's rows (builds, domains): the app is loaded first, so another account's app is a 404 rather than
// an empty page. Each list names its hook here (spec/areas/apps.yaml, plain.hook.code).
import type { Knex } from 'knex';
import type { HandlerContext } from '../../generated/handler.js';
import { loadApp } from './load-app.js';

async function narrowToApp(rows: Knex.QueryBuilder, table: string, appId: string | undefined, ctx: HandlerContext): Promise<void> {
  if (appId === undefined) return;
  await loadApp(ctx, appId, ['developer:basic:read'], 'app_id');
  rows.where(`${table}.app_id`, appId);
}

/** The list hook of a table whose app_id names the app: with app_id, that app's rows. */
const ofOneApp = (table: string) => (rows: Knex.QueryBuilder, query: { app_id?: string }, ctx: HandlerContext) =>
  narrowToApp(rows, table, query.app_id, ctx);

/** GET /app_builds: one app's builds. */
export const buildsOfOneApp = ofOneApp('app_builds');
/** GET /domains: with app_id, one app's hostnames. */
export const domainsOfOneApp = ofOneApp('app_domains');
