// Legacy subscriptions (issue #37 item 7): v5 joins v2 as a stored payload format. Neither is created through
// /api/v1: v2 comes from POST /api/v2/webhooks, v2 and v5 from `npm run cli -- operator import-webhook`.
// A v2 or v5 subscription's payloads follow its format (data at the pre-versioning model), never a pin, so it is
// unpinned: rows of /api/v2 that kept an api_version_date (shown, yet without effect on what they received) are
// unpinned, and a check keeps it so.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table webhooks drop constraint if exists webhooks_payload_format_check');
  await knex.raw("update webhooks set api_version_date = null where payload_format <> 'v1' and api_version_date is not null");
  await knex.raw(`alter table webhooks add constraint webhooks_payload_format_check
    check (payload_format in ('v1', 'v2', 'v5'))`);
  await knex.raw(`alter table webhooks add constraint webhooks_legacy_format_unpinned
    check (payload_format = 'v1' or api_version_date is null)`);
}

export async function down(knex: Knex): Promise<void> {
  // A v5 subscription has no form before this migration: going down with one would change what it receives.
  const [{ n }] = (await knex.raw("select count(*)::int as n from webhooks where payload_format = 'v5'")).rows;
  if (n > 0) throw new Error(`${n} v5 webhook subscriptions exist: delete them before undoing migration 585`);
  await knex.raw('alter table webhooks drop constraint if exists webhooks_legacy_format_unpinned');
  await knex.raw('alter table webhooks drop constraint if exists webhooks_payload_format_check');
  await knex.raw("alter table webhooks add constraint webhooks_payload_format_check check (payload_format in ('v1', 'v2'))");
}
