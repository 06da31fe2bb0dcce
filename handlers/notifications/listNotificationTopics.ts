// Written by hand, not declared plain: a catalogue owned by no account (a handful of seeded rows), paged in memory in
// its order.
import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { paginateArray } from '../../runtime/pagination.js';

/** GET /notifications/topics: the catalogue (a handful of rows, seeded by migrations/311), in its order. */
export const listNotificationTopics: Handler<'listNotificationTopics'> = async ({ query }, ctx) => {
  const rows = await ctx.db('notification_topics').orderBy('position');
  return paginateArray(rows.map(resources.NotificationTopic.view), query, ctx.defaultPageSize);
};
