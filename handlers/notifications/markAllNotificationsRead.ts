// Written by hand, not declared plain: marks many rows (the caller's unread ones) and answers a count, not one row.
import type { Handler } from '../../generated/handler.js';
import { nowMs } from '../shared/now.js';
import { callerId, topicOrNotFound } from './feed.js';

/** POST /notifications/read_all: every unread notification of the caller (of one topic with topic_id) read now. */
export const markAllNotificationsRead: Handler<'markAllNotificationsRead'> = async ({ body }, ctx) => {
  const q = ctx.db('notifications').where({ user_id: callerId(ctx) }).whereNull('read_at');
  if (body.topic_id) {
    q.where({ type: (await topicOrNotFound(ctx.db, body.topic_id, 'topic_id')).identifier });
  }
  const marked = await q.update({ read_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
  return { object: 'notifications_marked', marked };
};
