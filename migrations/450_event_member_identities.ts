// The official client's remaining event user fields (issue 18 §2): external_id, the account's own id for a person
// (a fourth identity kind), and member_id / membership_id, the account's member or membership the event came from
// (kept on the event; they identify the person as that member's user).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table person_identities drop constraint person_identities_kind');
  await knex.raw("alter table person_identities add constraint person_identities_kind check (kind in ('anonymous_id', 'user_id', 'email', 'external_id'))");
  await knex.schema.alterTable('tracked_events', (t) => {
    t.text('member_id').nullable().references('members.id');
    t.text('membership_id').nullable().references('memberships.id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tracked_events', (t) => { t.dropColumns('member_id', 'membership_id'); });
  await knex.raw("delete from person_identities where kind = 'external_id'");
  await knex.raw('alter table person_identities drop constraint person_identities_kind');
  await knex.raw("alter table person_identities add constraint person_identities_kind check (kind in ('anonymous_id', 'user_id', 'email'))");
}
