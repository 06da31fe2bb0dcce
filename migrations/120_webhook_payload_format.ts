// Subscriptions created through the v2 API keep v2-format payloads (handlers/webhooks/delivery/v2-envelope.ts).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table webhooks add column payload_format text not null default 'v1' check (payload_format in ('v1', 'v2'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table webhooks drop column payload_format');
}
