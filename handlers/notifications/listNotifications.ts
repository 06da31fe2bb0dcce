import type { ListHook } from '../../generated/plain-hooks.js';
import { typeOf } from './feed.js';

/** GET /notifications (plain list of the caller's own): unread tests read_at; a topic is what notifications carry
 * as their type (its identifier). */
export const listNotifications: ListHook<'listNotifications'> = (rows, { unread, topic_id: topicId }, ctx) => {
  if (unread === true) rows.whereNull('notifications.read_at');
  if (unread === false) rows.whereNotNull('notifications.read_at');
  if (topicId) rows.whereIn('notifications.type', typeOf(ctx.db, topicId));
};
