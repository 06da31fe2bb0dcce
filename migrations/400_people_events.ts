// People and tracked events (spec/areas/people.yaml): an account's visitors and customers, and the conversion events
// attributed to them and to payments.
//
// A person is known by identities (person_identities: an anonymous id, a user id, an email), each naming one person
// of the account. When an event names an anonymous id and a user id that belong to two people, the anonymous one is
// merged into the user's (handlers/people/identify.ts): its identities and events move, its row goes.
//
// GET /stats/events reads event_rollups, never the events: a statement trigger adds what each insert brought, at the
// three grains of stat_rollups (migration 310: UTC quarter-hour, hour, day), as new rows that readers sum and
// compact_totals folds (migrations/support/totals.ts). Events are never updated except for their person_id on a
// merge, which no rollup counts.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';
import { registerTotals, unregisterTotals } from './support/totals.js';
import { GRAINS } from './310_stat_rollups.js';

const ROLLUP = `
  insert into event_rollups (account_id, event_name, currency, grain, bucket, conversions, attributed, revenue)
    select e.account_id, e.event_name, coalesce(p.currency, ''), g.grain,
      date_bin(g.width::interval, e.event_time, timestamptz '2000-01-01 00:00:00+00'),
      count(*), count(p.id), coalesce(sum(p.total), 0)
    from new_rows e left join payments p on p.id = e.payment_id
    cross join (values ${Object.entries(GRAINS).map(([g, w]) => `('${g}', '${w}')`).join(', ')}) as g(grain, width)
    group by 1, 2, 3, 4, 5;`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('people', (t) => {
    t.text('id').primary(); // prsn_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('user_id').nullable(); // set once identified (the user's identity names this person)
    t.text('email').nullable();
    t.text('name').nullable();
    t.text('phone').nullable();
    t.integer('event_count').notNullable().defaultTo(0);
    t.integer('purchase_count').notNullable().defaultTo(0); // events attributed to a payment
    timestamp(t, 'first_seen_at').notNullable();
    timestamp(t, 'last_seen_at').notNullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['account_id', 'last_seen_at', 'id']);
  });

  await knex.schema.createTable('person_identities', (t) => {
    t.text('account_id').notNullable().references('accounts.id');
    t.text('kind').notNullable(); // anonymous_id | user_id | email
    t.text('value').notNullable();
    t.text('person_id').notNullable().references('people.id');
    timestamp(t, 'created_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
    t.primary(['account_id', 'kind', 'value']);
    t.index(['person_id']);
  });
  await knex.raw("alter table person_identities add constraint person_identities_kind check (kind in ('anonymous_id', 'user_id', 'email'))");

  await knex.schema.createTable('tracked_events', (t) => {
    t.text('id').primary(); // cevt_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('person_id').notNullable().references('people.id');
    t.text('event_id').notNullable(); // the caller's deduplication key (the id when none was sent)
    t.text('event_name').notNullable();
    t.text('custom_name').nullable();
    timestamp(t, 'event_time').notNullable();
    t.text('action_source').nullable();
    t.text('url').nullable();
    t.text('referrer_url').nullable();
    t.text('title').nullable();
    money(t, 'value').nullable();
    t.text('currency').nullable();
    t.text('payment_id').nullable().references('payments.id');
    t.text('product_id').nullable().references('products.id');
    t.text('plan_id').nullable().references('plans.id');
    t.jsonb('context').nullable();
    timestamps(t, knex);
    t.unique(['account_id', 'event_id']);
    t.index(['account_id', 'event_time', 'id']);
    t.index(['person_id', 'event_time', 'id']);
  });

  await knex.schema.createTable('event_rollups', (t) => {
    t.text('account_id').notNullable().references('accounts.id');
    t.text('event_name').notNullable();
    t.text('currency').notNullable(); // the attributed payment's currency; '' without one
    t.text('grain').notNullable(); // q, h or d
    t.timestamp('bucket', { useTz: true }).notNullable();
    t.bigInteger('conversions').notNullable();
    t.bigInteger('attributed').notNullable();
    t.bigInteger('revenue').notNullable(); // attributed payments' totals, minor units of currency
  });
  await registerTotals(knex, { name: 'event_rollups', keys: ['account_id', 'event_name', 'currency', 'grain', 'bucket'], sums: ['conversions', 'attributed', 'revenue'] });
  // A window's read: one account's rows of one grain over a range of buckets, every event name at once.
  await knex.raw('create index event_rollups_window on event_rollups (account_id, grain, bucket)');
  await knex.raw(`create function event_rollups_insert() returns trigger language plpgsql as $$ begin ${ROLLUP} return null; end $$`);
  await knex.raw('create trigger event_rollups_insert after insert on tracked_events referencing new table as new_rows for each statement execute function event_rollups_insert()');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger event_rollups_insert on tracked_events');
  await knex.raw('drop function event_rollups_insert()');
  await unregisterTotals(knex, 'event_rollups');
  await knex.schema.dropTableIfExists('event_rollups');
  await knex.schema.dropTableIfExists('tracked_events');
  await knex.schema.dropTableIfExists('person_identities');
  await knex.schema.dropTableIfExists('people');
}
