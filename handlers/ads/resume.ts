import type { Knex } from 'knex';

/** A campaign that stopped delivering resumes with the next full hour: the hours it was stopped are not owed. */
export const resumeFrom = (db: Knex): Knex.Raw => db.raw("greatest(delivered_through, date_trunc('hour', now()) + interval '1 hour')");
