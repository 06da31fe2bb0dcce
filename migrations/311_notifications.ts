// Notifications: a user's feed (the notifications table of migration 030, whose `type` becomes the topic's stable
// identifier and which gains the fields apps send: title, subtitle, content, icon, deep-link path, and the account
// concerned), the topic catalogue (notification_topics, seeded here; a topic's id is ntop_ and its identifier without
// underscores, ntop_paymentreceived), each user's
// per-topic choices (notification_preferences) and the sends apps made (notification_sends: what the per-app rate
// limit counts). Every existing kind of notification (team and transfer invitations, card notices) is a topic.
//
// Platform events notify in ONE place: a statement trigger on events. Every event is an insert into events in the
// transaction of the change that caused it (runtime/events.ts recordEvent), so the trigger sees each one as it is
// recorded and writes its notifications in that transaction: no handler calls anything, and an event whose
// transaction rolls back notifies nobody. A topic with an event_type is what that event creates; its recipients:
//   payment.succeeded, payout.failed, dispute.created  every active team member of the event's account
//   team_member.invited                                the invited user
// A user who turned the topic off (notification_preferences.enabled false) is skipped.
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

/** [identifier, name, description, event type (null: written by its area, or sent by apps)]. */
export const TOPICS: [string, string, string, string | null][] = [
  ['payment_received', 'Payment received', 'A payment to an account you are on the team of succeeded.', 'payment.succeeded'],
  ['payout_failed', 'Payout failed', 'A payout of an account you are on the team of could not be delivered.', 'payout.failed'],
  ['dispute_opened', 'Dispute opened', 'A buyer disputed a payment to an account you are on the team of.', 'dispute.created'],
  ['team_invitation', 'Team invitation', 'You were invited to join an account\'s team.', 'team_member.invited'],
  ['transfer_invitation', 'Transfer invitation', 'Someone sent you money with a claim link.', null],
  ['cardholder_onboarding', 'New card', 'You were given a card of an account.', null],
  ['card_transaction', 'Card transaction', 'A purchase with your card was authorised, declined, settled or reversed.', null],
  ['app_message', 'App messages', 'Notifications apps send to an account\'s team (POST /notifications).', null],
];

/** A topic's fixed id: ids carry letters and digits only after their prefix. */
export const topicId = (identifier: string): string => `ntop_${identifier.replaceAll('_', '')}`;

// An amount of a money object of the event's data as a decimal string in its major unit ("10.00"), exactly.
const money = (m: string) => `(round((${m}->>'amount')::numeric / power(10::numeric, coalesce((${m}->>'decimals')::int, 2)), coalesce((${m}->>'decimals')::int, 2))::text
  || ' ' || upper(${m}->>'currency'))`;

const NOTIFY = `
  create function notify_on_events() returns trigger language plpgsql as $$
  begin
    insert into notifications (id, user_id, type, account_id, event_id, title, content, rest_path, data)
    select 'ntf_' || substr(md5(e.id || ':' || r.user_id), 1, 24), r.user_id, t.identifier, e.account_id, e.id, t.name,
      case e.type
        when 'payment.succeeded' then 'A payment of ' || coalesce(${money("e.data->'total'")}, 'an amount') || ' to ' || a.title || ' succeeded.'
        when 'payout.failed' then 'A payout from ' || a.title || ' could not be delivered; its amount is available again.'
        when 'dispute.created' then 'A buyer disputed ' || coalesce(${money("e.data->'amount'")}, 'a payment') || ' paid to ' || a.title
          || '; respond before ' || coalesce(e.data->>'response_due_at', 'the deadline') || '.'
        else 'You were invited to join ' || a.title || ' as ' || coalesce(e.data->>'role', 'a team member') || '.' end,
      e.data->>'id',
      case e.type
        -- What team invitations always carried (handlers/team_members: accepting or withdrawing finds it by team_member_id).
        when 'team_member.invited' then jsonb_build_object('team_member_id', e.data->>'id', 'account_id', e.account_id, 'account_title', a.title,
          'role', e.data->>'role', 'invited_by_user_id', (select m.invited_by_user_id from team_members m where m.id = e.data->>'id'))
        else jsonb_build_object('object', split_part(e.type, '.', 1), 'id', e.data->>'id', 'account_id', e.account_id) end
    from new_rows e
    join notification_topics t on t.event_type = e.type
    join accounts a on a.id = e.account_id
    cross join lateral (
      select m.user_id from team_members m
        where e.type <> 'team_member.invited' and m.account_id = e.account_id and m.status = 'active'
      union
      select e.data->'user'->>'id' where e.type = 'team_member.invited' and e.data->'user'->>'id' is not null
    ) r
    where not exists (select 1 from notification_preferences p where p.user_id = r.user_id and p.topic_id = t.id and not p.enabled)
    on conflict (id) do nothing;
    return null;
  end $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_topics', (t) => {
    t.text('id').primary(); // topicId(identifier)
    t.text('identifier').notNullable().unique();
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.text('event_type').nullable().unique();
    t.integer('position').notNullable(); // the catalogue's order
  });
  await knex('notification_topics').insert(TOPICS.map(([identifier, name, description, event_type], position) =>
    ({ id: topicId(identifier), identifier, name, description, event_type, position })));

  await knex.schema.alterTable('notifications', (t) => {
    t.text('account_id').nullable().references('accounts.id'); // the account it concerns
    t.text('event_id').nullable(); // the platform event that created it
    t.text('sender_api_key_id').nullable(); // the app (API key) that sent it
    t.text('title').nullable(); // null: the topic's name
    t.text('subtitle').nullable();
    t.text('content').nullable(); // null: the topic's description (the details are in data)
    t.text('icon_user_id').nullable().references('users.id');
    t.text('rest_path').nullable();
    timestamp(t, 'updated_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
    // type is the topic: a new kind of notification is a topic first.
    t.foreign('type').references('notification_topics.identifier');
  });
  // Badge counts read only the unread.
  await knex.raw('create index notifications_unread on notifications (user_id, type) where read_at is null');

  await knex.schema.createTable('notification_preferences', (t) => {
    t.text('user_id').notNullable().references('users.id');
    t.text('topic_id').notNullable().references('notification_topics.id');
    t.boolean('enabled').notNullable();
    timestamps(t, knex);
    t.primary(['user_id', 'topic_id']);
  });

  await knex.schema.createTable('notification_sends', (t) => {
    t.text('id').primary(); // nsnd_
    t.text('api_key_id').notNullable();
    t.text('account_id').notNullable().references('accounts.id');
    t.integer('recipients').notNullable();
    timestamps(t, knex);
    t.index(['api_key_id', 'created_at']);
  });

  await knex.raw(NOTIFY);
  await knex.raw(`create trigger notify_on_events after insert on events referencing new table as new_rows
    for each statement execute function notify_on_events()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger notify_on_events on events');
  await knex.raw('drop function notify_on_events()');
  await knex.schema.dropTableIfExists('notification_sends');
  await knex.schema.dropTableIfExists('notification_preferences');
  await knex.raw('drop index notifications_unread');
  await knex.schema.alterTable('notifications', (t) => {
    t.dropForeign(['type']);
    for (const c of ['account_id', 'event_id', 'sender_api_key_id', 'title', 'subtitle', 'content', 'icon_user_id', 'rest_path', 'updated_at']) t.dropColumn(c);
  });
  await knex.schema.dropTableIfExists('notification_topics');
}
