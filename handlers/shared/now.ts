// The database's clock for stored timestamps, cut to milliseconds: what the API shows (ISO 8601 with milliseconds)
// is then exactly what is stored, so comparisons and cursors on timestamps round-trip.
import type { Knex } from 'knex';

export const nowMs = (db: Knex): Knex.Raw => db.raw("date_trunc('milliseconds', now())");
