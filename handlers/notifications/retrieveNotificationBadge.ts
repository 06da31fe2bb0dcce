// Written by hand, not declared plain: counts computed over the caller's notifications, no stored row.
import type { Handler } from '../../generated/handler.js';
import { callerId } from './feed.js';

/** GET /notifications/unread_counts: unread notifications in all and per topic (the partial unread index). Written,
 * not plain: counts over the caller's notifications, not a stored row. */
export const retrieveNotificationBadge: Handler<'retrieveNotificationBadge'> = async (_input, ctx) => {
  const rows: { topic_id: string; identifier: string; unread: string }[] = await ctx.db('notifications as n')
    .join('notification_topics as t', 't.identifier', 'n.type')
    .where('n.user_id', callerId(ctx)).whereNull('n.read_at')
    .groupBy('t.id', 't.identifier', 't.position').orderBy('t.position')
    .select('t.id as topic_id', 't.identifier', ctx.db.raw('count(*) as unread'));
  const topics = rows.map((r) => ({ topic_id: r.topic_id, identifier: r.identifier, unread: Number(r.unread) }));
  return { object: 'notification_badge', unread: topics.reduce((sum, t) => sum + t.unread, 0), topics };
};
