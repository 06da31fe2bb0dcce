import type { ListHook } from '../../generated/plain-hooks.js';
import { narrowToApp } from './app-scoped-list.js';

/** GET /app_builds (plain list): one app's builds; another account's app is a 404 naming app_id. */
export const listAppBuilds: ListHook<'listAppBuilds'> = (rows, { app_id: appId }, ctx) => narrowToApp(rows, 'app_builds', appId, ctx);
