// Clocks (runtime/clock.ts): a sandbox account can run on a clock that stands still until it is advanced. The clock's
// time is read by `public.clock_now()` (real now() outside a clock), by an unqualified now() in a clocked session
// (its search_path puts clock_time.now first), and by every column default that used now(). Jobs added on a clock
// that are not due yet wait in clock_timers until an advance reaches them (public.app_add_job).
import type { Knex } from 'knex';

const CLOCK_NOW = `
create schema if not exists clock_time;
create or replace function public.clock_now() returns timestamptz language sql stable parallel safe as $$
  select coalesce(nullif(current_setting('app.clock_now', true), '')::timestamptz, pg_catalog.now())
$$;
create or replace function clock_time.now() returns timestamptz language sql stable parallel safe as $$
  select public.clock_now()
$$;`;

// Every job added by the code goes through here (runtime/jobs.ts). Outside a clock: graphile-worker's add_job. On a
// clock: a job due by the clock's time while the clock stands (ready) runs at once, on the clock (its payload names
// the clock; runtime/worker.ts runs it at the clock's time); any other waits as a timer, run in time order by the
// advance (runtime/clock-advance.ts). A job for the world outside (a webhook's delivery) passes real_time and runs
// at the wall's time. graphile-worker's own now() must stay the wall's: run_at is always passed.
const ADD_JOB = `
create or replace function public.app_add_job(p_task text, p_payload json, p_run_at timestamptz, p_max_attempts integer,
    p_job_key text, p_job_key_mode text, p_real_time boolean) returns graphile_worker._private_jobs language plpgsql volatile as $$
declare
  v_clock text := case when p_real_time then null else nullif(current_setting('app.clock_id', true), '') end;
  v_status text;
  v_now timestamptz;
begin
  if v_clock is not null then
    -- Shared: the advance moves the clock under an update lock, so a job is never filed against a time it has left.
    select c.status, c.frozen_time into v_status, v_now from public.clocks c where c.id = v_clock and c.deleted_at is null for share;
  end if;
  if v_status is null then
    return graphile_worker.add_job(p_task, p_payload, run_at => coalesce(p_run_at, pg_catalog.now()), max_attempts => p_max_attempts,
      job_key => p_job_key, job_key_mode => p_job_key_mode);
  end if;
  if v_status = 'ready' and (p_run_at is null or p_run_at <= v_now) then
    return graphile_worker.add_job(p_task, (coalesce(p_payload::jsonb, '{}'::jsonb) || jsonb_build_object('$clock', v_clock))::json,
      run_at => pg_catalog.now(), max_attempts => p_max_attempts, job_key => p_job_key, job_key_mode => p_job_key_mode);
  end if;
  insert into public.clock_timers as t (clock_id, run_at, task, payload, job_key, max_attempts)
    values (v_clock, greatest(coalesce(p_run_at, v_now), v_now), p_task, coalesce(p_payload, '{}'::json), p_job_key, coalesce(p_max_attempts, 25))
    on conflict (clock_id, job_key) where job_key is not null do update set
      run_at = case when p_job_key_mode = 'preserve_run_at' then t.run_at else excluded.run_at end,
      payload = excluded.payload, max_attempts = excluded.max_attempts, attempts = 0, last_error = null
      where p_job_key_mode is distinct from 'unsafe_dedupe';
  return null;
end
$$;`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(CLOCK_NOW);
  await knex.raw(`
    create table clocks (
      id text primary key,
      account_id text not null references accounts(id),
      name text,
      frozen_time timestamptz not null,
      target_time timestamptz,
      status text not null default 'ready' check (status in ('ready', 'advancing')),
      created_at timestamptz not null default date_trunc('milliseconds', pg_catalog.now()),
      updated_at timestamptz not null default date_trunc('milliseconds', pg_catalog.now()),
      deleted_at timestamptz
    );
    create unique index clocks_one_per_account on clocks (account_id) where deleted_at is null;
    create table clock_timers (
      id bigserial primary key,
      clock_id text not null references clocks(id) on delete cascade,
      run_at timestamptz not null,
      task text not null,
      payload json not null,
      job_key text,
      max_attempts integer not null default 25,
      attempts integer not null default 0,
      last_error text
    );
    create unique index clock_timers_key on clock_timers (clock_id, job_key) where job_key is not null;
    create index clock_timers_due on clock_timers (clock_id, run_at, id);
    alter table accounts add column clock_id text references clocks(id);
    create index accounts_clock on accounts (clock_id) where clock_id is not null;
    create trigger accounts_clock_invalidates_credentials after update of clock_id on accounts
      for each statement execute function notify_cache_invalidation('credentials');`);
  await knex.raw(ADD_JOB);
  // Column defaults are bound to pg_catalog.now() when written: rewrite each to read the clock.
  await knex.raw(`do $$ declare r record; begin
    for r in select c.table_name, c.column_name, c.column_default from information_schema.columns c
      where c.table_schema = 'public' and c.table_name not in ('clocks', 'clock_timers')
        and (c.column_default ilike '%now()%' or c.column_default ilike '%current_timestamp%') loop
      execute format('alter table public.%I alter column %I set default %s', r.table_name, r.column_name,
        case when r.column_default ilike '%date_trunc%' then 'date_trunc(''milliseconds'', public.clock_now())' else 'public.clock_now()' end);
    end loop; end $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`do $$ declare r record; begin
    for r in select c.table_name, c.column_name, c.column_default from information_schema.columns c
      where c.table_schema = 'public' and c.column_default ilike '%clock_now()%' loop
      execute format('alter table public.%I alter column %I set default %s', r.table_name, r.column_name,
        case when r.column_default ilike '%date_trunc%' then 'date_trunc(''milliseconds'', now())' else 'now()' end);
    end loop; end $$`);
  await knex.raw('drop function if exists public.app_add_job(text, json, timestamptz, integer, text, text, boolean)');
  await knex.raw('drop trigger accounts_clock_invalidates_credentials on accounts; alter table accounts drop column clock_id; drop table clock_timers; drop table clocks');
  await knex.raw('drop schema clock_time cascade; drop function public.clock_now()');
}
