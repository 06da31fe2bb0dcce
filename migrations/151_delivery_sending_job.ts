// A delivery being sent names the job sending it, so that the same job run again after its worker died (released by
// runtime/worker-liveness.ts) takes the delivery back at once instead of waiting out the sending lease.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table webhook_deliveries add column sending_job_id text');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table webhook_deliveries drop column sending_job_id');
}
