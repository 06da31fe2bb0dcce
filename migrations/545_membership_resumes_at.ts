// A pause with an end (POST /memberships/{id}/pause with resumes_at): the membership resumes by itself then, at its
// due_at (handlers/memberships/period-step.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table memberships add column if not exists resumes_at timestamptz');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table memberships drop column if exists resumes_at');
}
