// A deleted subscription keeps its row: its deliveries and their attempts (webhook_deliveries references it) are the
// history an account reads, and deleting them with it would lose what was sent where. deleted_at set: the
// subscription is a 404 everywhere and nothing more is delivered to it.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table webhooks add column deleted_at timestamptz');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table webhooks drop column deleted_at');
}
