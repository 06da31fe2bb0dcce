import type { ListHook } from '../../generated/plain-hooks.js';
import { narrowToApp } from './app-scoped-list.js';

/** GET /domains (plain list): with app_id, one app's hostnames; another account's app is a 404 naming app_id. */
export const listDomains: ListHook<'listDomains'> = (rows, { app_id: appId }, ctx) => narrowToApp(rows, 'app_domains', appId, ctx);
