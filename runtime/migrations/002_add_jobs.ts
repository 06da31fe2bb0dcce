// public.app_add_jobs: the jobs a request queued, added at its COMMIT in one call (runtime/jobs.ts, request-db.ts).
// graphile-worker's add_jobs plans its four statements on every call (runtime/migrate.ts keeps it so), which made
// each job cost about 300 µs of PostgreSQL CPU: measured, two jobs in one add_jobs call cost what one job costs alone.
// So the jobs of a request go in as few calls as their kinds allow, in the order they were queued: consecutive jobs
// with the same key mode and distinct keys share a call. A job on a clock (app.clock_id set, not real_time), a
// queued one and an unsafe_dedupe one go one at a time through public.app_add_job, whose rules they follow. Frozen
// history like any migration: migrations/660_app_add_jobs.ts applies the same step to this project.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function public.app_add_jobs(p_jobs json) returns void language plpgsql volatile as $$
    declare
      v_clock text := nullif(current_setting('app.clock_id', true), '');
      v_specs graphile_worker.job_spec[] := '{}';
      v_keys text[] := '{}';
      v_preserve boolean := false;
      v_mode boolean;
      v_alone boolean;
      j record;
    begin
      for j in select * from json_to_recordset(p_jobs) as x(task text, payload json, run_at timestamptz, max_attempts integer,
          job_key text, job_key_mode text, real_time boolean, queue_name text) loop
        v_alone := (v_clock is not null and not coalesce(j.real_time, false)) or j.queue_name is not null or j.job_key_mode = 'unsafe_dedupe';
        v_mode := coalesce(j.job_key_mode = 'preserve_run_at', false);
        -- The call so far goes first when this job cannot join it: one that goes alone, another key mode, or a key
        -- already in the call (a second change of one row in one statement).
        if cardinality(v_specs) > 0 and (v_alone or v_mode <> v_preserve or j.job_key = any(v_keys)) then
          perform graphile_worker.add_jobs(v_specs, v_preserve);
          v_specs := '{}';
          v_keys := '{}';
        end if;
        if v_alone then
          if j.queue_name is null then
            perform public.app_add_job(j.task, j.payload, j.run_at, j.max_attempts, j.job_key, j.job_key_mode, coalesce(j.real_time, false));
          else
            perform public.app_add_job(j.task, j.payload, j.run_at, j.max_attempts, j.job_key, j.job_key_mode, coalesce(j.real_time, false), j.queue_name);
          end if;
          continue;
        end if;
        v_preserve := v_mode;
        v_specs := v_specs || row(j.task, coalesce(j.payload, '{}'::json), null, coalesce(j.run_at, pg_catalog.now()),
          coalesce(j.max_attempts, 25)::smallint, j.job_key, null, null)::graphile_worker.job_spec;
        if j.job_key is not null then
          v_keys := v_keys || j.job_key;
        end if;
      end loop;
      if cardinality(v_specs) > 0 then
        perform graphile_worker.add_jobs(v_specs, v_preserve);
      end if;
    end
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists public.app_add_jobs(json)');
}
