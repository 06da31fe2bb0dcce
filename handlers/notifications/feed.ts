// The caller's own notifications: every feed operation is for user tokens and reads only the token's user's rows,
// so another user's notification is simply not found.
import type { Knex } from 'knex';
import { resources } from '../../generated/resources.js';
import { notFound } from '../../runtime/errors.js';
import type { HandlerContext } from '../../generated/handler.js';

/** The user behind the token (the spec admits only user tokens to these operations). */
export const callerId = (ctx: HandlerContext): string => ctx.principal.userId!;

/** The caller's notifications, read as the Notification resource reads them. */
export const feedRows = (db: Knex, userId: string) =>
  db('notifications').select(db.raw(resources.Notification.columns)).where('notifications.user_id', userId);

/** The identifier (what notifications carry as their type) of a topic id, for filters. */
export const typeOf = (db: Knex, topicId: string) => db('notification_topics').where({ id: topicId }).select('identifier');

/** A topic of the catalogue, or a 404 naming `param`. */
export async function topicOrNotFound(db: Knex, topicId: string, param: string): Promise<{ id: string; identifier: string }> {
  const topic = await db('notification_topics').where({ id: topicId }).first();
  if (!topic) throw notFound('notification topic', topicId, param);
  return topic;
}
