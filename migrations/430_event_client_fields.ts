// The official client's other event fields (issue 18 §2): page and identify details on the event, and the user's
// profile (first and last name, place, birthdate, gender, username) on the event as sent and merged into its person.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tracked_events', (t) => {
    t.integer('duration_ms').nullable(); // 'leave' events: milliseconds on the page
    t.boolean('resumed').nullable(); // 'page' events: restored from the back/forward cache
    t.text('identify_source').nullable(); // 'identify' events: url, form, manual or iframe
    t.jsonb('user_profile').nullable(); // the profile fields the event's user carried, as sent
  });
  await knex.schema.alterTable('people', (t) => {
    // The latest non-null value of each profile field the person's events carried.
    t.jsonb('profile').notNullable().defaultTo('{}');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('people', (t) => { t.dropColumn('profile'); });
  await knex.schema.alterTable('tracked_events', (t) => {
    t.dropColumns('duration_ms', 'resumed', 'identify_source', 'user_profile');
  });
}
