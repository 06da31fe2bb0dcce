// Written by hand, not declared plain: an array computed in memory: every topic of the catalogue with the caller's
// choice.
import type { Handler } from '../../generated/handler.js';
import { paginateArray } from '../../runtime/pagination.js';
import { callerId } from './feed.js';
import { preferencesOf } from './preferences.js';

/** GET /notifications/preferences: every topic with the caller's choice. */
export const listNotificationPreferences: Handler<'listNotificationPreferences'> = async ({ query }, ctx) =>
  paginateArray(await preferencesOf(ctx.db, callerId(ctx)), query, ctx.defaultPageSize);
