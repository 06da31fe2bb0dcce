// Column helpers every migration shares, so a storage rule is written once. (runtime/migrate.ts applies only the
// numbered files of migrations/, so this folder is never run as a migration.)
import type { Knex } from 'knex';

type Table = Knex.CreateTableBuilder | Knex.AlterTableBuilder;

/** A timestamp with time zone at millisecond precision, so keyset cursors round-trip exactly through JavaScript. */
export const timestamp = (t: Table, name: string) => t.timestamp(name, { useTz: true, precision: 3 });

/** created_at and updated_at, defaulting to now at millisecond precision. */
export function timestamps(t: Table, knex: Knex): void {
  timestamp(t, 'created_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
  timestamp(t, 'updated_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
}

/** created_at and updated_at for tables made after the sandbox clocks (migrations/525_clocks.ts): defaulting to the
 * clock's now (the wall's outside a clock), as every default must from then on (test/sandbox/clock.test.ts). */
export function clockTimestamps(t: Table, knex: Knex): void {
  timestamp(t, 'created_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', clock_now())"));
  timestamp(t, 'updated_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', clock_now())"));
}

/** An amount of money: an integer in the currency's minor units (64-bit), never a float. */
export const money = (t: Table, name: string) => t.bigInteger(name);
