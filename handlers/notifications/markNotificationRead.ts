// Written by hand, not declared plain: Notification's account_id is nullable (a platform notification may concern
// no account), so its row is no plain Row (account_id: string) and a plain action (with a plain.find keeping this
// 404, which names no param) fails to type-check in generated/plain-operations.ts.
import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { notFound } from '../../runtime/errors.js';
import { nowMs } from '../shared/now.js';
import { callerId, feedRows } from './feed.js';

/** POST /notifications/{id}/read: read_at is set the first time; another user's notification is a 404. */
export const markNotificationRead: Handler<'markNotificationRead'> = async ({ path }, ctx) => {
  const userId = callerId(ctx);
  await ctx.db('notifications').where({ id: path.id, user_id: userId }).whereNull('read_at').update({ read_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
  const row = await feedRows(ctx.db, userId).where('notifications.id', path.id).first();
  if (!row) throw notFound('notification', path.id);
  return resources.Notification.view(row);
};
