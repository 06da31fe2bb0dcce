// Written by hand, not declared plain: NotificationPreference is no stored resource (no table:; its path names a topic,
// and the row is an upsert of the caller's choice).
import type { Handler } from '../../generated/handler.js';
import { nowMs } from '../shared/now.js';
import { callerId, topicOrNotFound } from './feed.js';
import { preferencesOf } from './preferences.js';

/** PATCH /notifications/preferences/{topic_id}: the caller turns a topic on or off (an unknown topic is a 404). */
export const updateNotificationPreference: Handler<'updateNotificationPreference'> = async ({ path, body }, ctx) => {
  const userId = callerId(ctx);
  await topicOrNotFound(ctx.db, path.topic_id, 'topic_id');
  await ctx.db('notification_preferences').insert({ user_id: userId, topic_id: path.topic_id, enabled: body.enabled })
    .onConflict(['user_id', 'topic_id']).merge({ enabled: body.enabled, updated_at: nowMs(ctx.db) });
  const [preference] = await preferencesOf(ctx.db, userId, path.topic_id);
  return preference;
};
