import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { paginate } from '../../runtime/pagination.js';
import { callerId, feedRows, typeOf } from './feed.js';

/** GET /notifications: the caller's feed, newest first. */
export const listNotifications: Handler<'listNotifications'> = async ({ query }, ctx) => {
  const q = feedRows(ctx.db, callerId(ctx));
  if (query.unread === true) q.whereNull('notifications.read_at');
  if (query.unread === false) q.whereNotNull('notifications.read_at');
  if (query.topic_id) q.whereIn('notifications.type', typeOf(ctx.db, query.topic_id));
  const { rows, page_info } = await paginate<{ id: string; account_id: string }>(q, query, {
    sortColumn: 'notifications.created_at', idColumn: 'notifications.id', direction: 'desc', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map(resources.Notification.view), page_info };
};
