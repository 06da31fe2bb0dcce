// A user's choice per topic: a row only for topics the user changed; every topic is on until turned off.
import type { Knex } from 'knex';

export async function preferencesOf(db: Knex, userId: string, topicId?: string) {
  const q = db('notification_topics as t')
    .leftJoin('notification_preferences as p', (j) => j.on('p.topic_id', 't.id').andOn('p.user_id', db.raw('?', [userId])))
    .orderBy('t.position')
    .select('t.id', 't.identifier', db.raw('coalesce(p.enabled, true) as enabled'));
  if (topicId) q.where('t.id', topicId);
  const rows: { id: string; identifier: string; enabled: boolean }[] = await q;
  return rows.map((r) => ({ object: 'notification_preference' as const, id: r.id, topic_id: r.id, identifier: r.identifier, enabled: r.enabled }));
}
