import type { ListHook } from '../../generated/plain-hooks.js';

/** GET /apps/{id}/logs (plain list of the app's lines): level names console lines of that level (request and
 * exception lines have levels too). */
export const listAppLogs: ListHook<'listAppLogs'> = (rows, { level }) => {
  if (level !== undefined) rows.where({ 'app_logs.source': 'console', 'app_logs.level': level });
};
