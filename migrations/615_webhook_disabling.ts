// Webhooks an integrator can operate (retries over days, a failing endpoint is told, one slow receiver holds back
// only itself):
// - a subscription remembers since when its deliveries have all failed (failing_since, cleared by a success), and the
//   platform's disabling says when and why (disabled_at, disabled_reason: gone on a 410, failing after 5 days);
// - the team is told through the notifications' one place, the trigger on events: webhook.disabled is a topic whose
//   recipients are the account's active team members (notify_on_events below is migration 311's with its text);
// - jobs may name a graphile-worker queue (app_add_job's eight-argument form): a subscription's deliveries run one
//   at a time, in order, in its own queue, while other subscriptions' run beside them.
import type { Knex } from 'knex';
import { timestamp } from './support/columns.js';

const TOPIC = {
  id: 'ntop_webhookdisabled', identifier: 'webhook_disabled', name: 'Webhook disabled',
  description: 'A webhook subscription of an account you are on the team of was disabled: its receiver is gone, or kept failing.',
  event_type: 'webhook.disabled',
};

const money = (m: string) => `(round((${m}->>'amount')::numeric / power(10::numeric, coalesce((${m}->>'decimals')::int, 2)), coalesce((${m}->>'decimals')::int, 2))::text
  || ' ' || upper(${m}->>'currency'))`;

/** Migration 311's notify_on_events, with the content of webhook.disabled (`withWebhook` false: 311's own). */
const notifyOnEvents = (withWebhook: boolean) => `
  create or replace function notify_on_events() returns trigger language plpgsql as $$
  begin
    insert into notifications (id, user_id, type, account_id, event_id, title, content, rest_path, data)
    select 'ntf_' || substr(md5(e.id || ':' || r.user_id), 1, 24), r.user_id, t.identifier, e.account_id, e.id, t.name,
      case e.type
        when 'payment.succeeded' then 'A payment of ' || coalesce(${money("e.data->'total'")}, 'an amount') || ' to ' || a.title || ' succeeded.'
        when 'payout.failed' then 'A payout from ' || a.title || ' could not be delivered; its amount is available again.'
        when 'dispute.created' then 'A buyer disputed ' || coalesce(${money("e.data->'amount'")}, 'a payment') || ' paid to ' || a.title
          || '; respond before ' || coalesce(e.data->>'response_due_at', 'the deadline') || '.'${withWebhook ? `
        when 'webhook.disabled' then 'The webhook of ' || a.title || ' to ' || coalesce(e.data->>'url', 'its url') || ' was disabled: '
          || case e.data->>'disabled_reason' when 'gone' then 'its receiver answered 410 Gone'
               else 'its deliveries have all failed for 5 days' end
          || '. Turn it back on with PATCH /webhooks/' || (e.data->>'id') || ' (enabled true); what failed meanwhile can be replayed.'` : ''}
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

// graphile-worker's add_job takes a queue name: jobs of one queue run one at a time, in run_at order. On a clock the
// job waits as a timer, which the advance runs in time order anyway (runtime/clock-advance.ts).
const ADD_JOB_IN_QUEUE = `
create or replace function public.app_add_job(p_task text, p_payload json, p_run_at timestamptz, p_max_attempts integer,
    p_job_key text, p_job_key_mode text, p_real_time boolean, p_queue_name text) returns graphile_worker._private_jobs language plpgsql volatile as $$
declare
  v_clock text := case when p_real_time then null else nullif(current_setting('app.clock_id', true), '') end;
  v_status text;
  v_now timestamptz;
begin
  if v_clock is not null then
    select c.status, c.frozen_time into v_status, v_now from public.clocks c where c.id = v_clock and c.deleted_at is null for share;
  end if;
  if v_status is null then
    return graphile_worker.add_job(p_task, p_payload, queue_name => p_queue_name, run_at => coalesce(p_run_at, pg_catalog.now()),
      max_attempts => p_max_attempts, job_key => p_job_key, job_key_mode => p_job_key_mode);
  end if;
  if v_status = 'ready' and (p_run_at is null or p_run_at <= v_now) then
    return graphile_worker.add_job(p_task, (coalesce(p_payload::jsonb, '{}'::jsonb) || jsonb_build_object('$clock', v_clock))::json,
      queue_name => p_queue_name, run_at => pg_catalog.now(), max_attempts => p_max_attempts, job_key => p_job_key,
      job_key_mode => p_job_key_mode);
  end if;
  return public.app_add_job(p_task, p_payload, p_run_at, p_max_attempts, p_job_key, p_job_key_mode, p_real_time);
end
$$;`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhooks', (t) => {
    timestamp(t, 'failing_since').nullable(); // the first failed attempt since the last success
    timestamp(t, 'disabled_at').nullable();
    t.text('disabled_reason').nullable();
  });
  await knex.raw("alter table webhooks add constraint webhooks_disabled_reason_check check (disabled_reason in ('gone', 'failing'))");
  const [{ position }] = (await knex.raw('select coalesce(max(position), -1) + 1 as position from notification_topics')).rows;
  await knex('notification_topics').insert({ ...TOPIC, position });
  await knex.raw(notifyOnEvents(true));
  await knex.raw(ADD_JOB_IN_QUEUE);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists public.app_add_job(text, json, timestamptz, integer, text, text, boolean, text)');
  await knex.raw(notifyOnEvents(false));
  await knex('notification_preferences').where({ topic_id: TOPIC.id }).delete();
  await knex('notifications').where({ type: TOPIC.identifier }).delete();
  await knex('notification_topics').where({ id: TOPIC.id }).delete();
  await knex.raw('alter table webhooks drop constraint if exists webhooks_disabled_reason_check');
  await knex.schema.alterTable('webhooks', (t) => {
    t.dropColumn('failing_since');
    t.dropColumn('disabled_at');
    t.dropColumn('disabled_reason');
  });
}
