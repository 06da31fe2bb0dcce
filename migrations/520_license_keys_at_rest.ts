// No license key in a table in the clear (handlers/memberships/license-key.ts): a membership's key, shown on reads,
// becomes two columns, license_key_sealed (sealed: runtime/sealed-secrets.ts) and license_key_hash (its SHA-256, on
// a unique index, which GET /memberships/{license key} and the v2 license routes find the row by); the column in the
// clear goes. Membership events lose their key (a delivery reads it again: handlers/webhooks/delivery/secret-links.ts).
// Every key handed out keeps working. Like 510, it seals with the server's secret, so it runs in a process configured
// as the server is (npm start, bin/prepare-database.ts). Run again, it changes nothing.
import type { Knex } from 'knex';
import { seal, unseal } from '../runtime/sealed-secrets.js';
import { rewriteRows } from './support/rewrite-rows.js';

const SHA256_HEX = (column: string) => `encode(sha256(convert_to(${column}, 'UTF8')), 'hex')`;
const MEMBERSHIP_EVENTS = `type like 'membership.%' and jsonb_typeof(data) = 'object'`;

async function hasColumn(knex: Knex, column: string): Promise<boolean> {
  return (await knex.raw(`select 1 from information_schema.columns
    where table_schema = current_schema() and table_name = 'memberships' and column_name = ?`, [column])).rows.length > 0;
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table memberships add column if not exists license_key_sealed text, add column if not exists license_key_hash text`);
  if (await hasColumn(knex, 'license_key')) {
    await knex.raw(`update memberships set license_key_hash = ${SHA256_HEX('license_key')} where license_key is not null`);
    await rewriteRows(knex, 'memberships', 'id', 'license_key_sealed', 'license_key is not null and license_key_sealed is null',
      (row) => seal(row.license_key));
    await knex.raw(`alter table memberships drop column license_key`);
  }
  await knex.raw(`create unique index if not exists memberships_license_key_hash_unique on memberships (license_key_hash)`);
  await knex.raw(`update events set data = jsonb_set(data, '{license_key}', 'null') where ${MEMBERSHIP_EVENTS}
    and jsonb_typeof(data -> 'license_key') = 'string'`);
}

/** The key in the clear again, in memberships and in their events. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table memberships add column if not exists license_key text unique`);
  await rewriteRows(knex, 'memberships', 'id', 'license_key', 'license_key_sealed is not null and license_key is null',
    (row) => unseal(row.license_key_sealed));
  await knex.raw(`update events e set data = jsonb_set(e.data, '{license_key}', to_jsonb(m.license_key)) from memberships m
    where ${MEMBERSHIP_EVENTS} and m.id = e.data ->> 'id' and m.license_key is not null`);
  await knex.raw(`alter table memberships drop column license_key_sealed, drop column license_key_hash`);
}
