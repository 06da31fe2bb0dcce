// What the runtime reads and writes whatever the API: the accounts credentials act for (runtime/auth.ts,
// runtime/access.ts), API keys, user tokens and team members, idempotency keys, the event outbox
// (runtime/events.ts), worker heartbeats (runtime/worker-liveness.ts) and the job function every job goes through
// (runtime/jobs.ts; here graphile-worker's add_job, which an API with clocks replaces in a later migration of its
// own). Each is made only where it is missing, so the step changes nothing on a database that already has it.
import type { Knex } from 'knex';

const MS_NOW = "date_trunc('milliseconds', now())";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table if not exists accounts (
      id text primary key,
      parent_id text references accounts(id),
      title text not null,
      client_id text not null unique,
      allowed_origins text[] not null default '{*}',
      clock_id text,
      created_at timestamptz not null default ${MS_NOW}
    );
    create table if not exists user_tokens (
      id text primary key,
      user_id text not null,
      secret_hash text not null unique,
      expires_at timestamptz,
      revoked_at timestamptz
    );
    create table if not exists team_members (
      id text primary key,
      account_id text not null references accounts(id),
      user_id text not null,
      role text not null,
      permissions text[] not null default '{}',
      status text not null default 'active'
    );
    create table if not exists api_keys (
      id text primary key,
      account_id text not null references accounts(id),
      app_id text,
      secret_hash text not null unique,
      role text,
      statements jsonb not null default '[]',
      ip_allowlist text[] not null default '{}',
      api_version_date date,
      expires_at timestamptz,
      revoked_at timestamptz,
      last_used_at timestamptz,
      rate_limit_multiplier real not null default 1,
      created_at timestamptz not null default ${MS_NOW}
    );
    create table if not exists idempotency_keys (
      credential_id text not null,
      key text not null,
      operation_id text not null,
      request_hash text not null,
      state text not null,
      status_code integer,
      response jsonb,
      expires_at timestamptz not null,
      created_at timestamptz not null default ${MS_NOW},
      updated_at timestamptz not null default ${MS_NOW},
      primary key (credential_id, key)
    );
    create table if not exists events (
      id text primary key,
      type text not null,
      account_id text,
      data jsonb not null,
      created_at timestamptz not null default ${MS_NOW},
      updated_at timestamptz not null default ${MS_NOW}
    );
    create table if not exists worker_heartbeats (
      worker_id text primary key,
      host text not null,
      pid integer not null,
      started_at timestamptz not null default ${MS_NOW},
      beat_at timestamptz not null default ${MS_NOW},
      expires_at timestamptz not null
    );
    do $do$ begin
      if to_regprocedure('public.app_add_job(text, json, timestamptz, integer, text, text, boolean)') is null then
        create function public.app_add_job(p_task text, p_payload json, p_run_at timestamptz, p_max_attempts integer,
            p_job_key text, p_job_key_mode text, p_real_time boolean) returns graphile_worker._private_jobs language sql volatile as $fn$
          select graphile_worker.add_job(p_task, p_payload, run_at => coalesce(p_run_at, now()), max_attempts => p_max_attempts,
            job_key => p_job_key, job_key_mode => p_job_key_mode)
        $fn$;
      end if;
    end $do$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop function public.app_add_job; drop table worker_heartbeats, events, idempotency_keys, api_keys, team_members,
    user_tokens, accounts`);
}
