// Audiences (spec/areas/audiences.yaml): saved targeting an ad group delivers to or excludes. A customer list is the
// account's members, an engagement audience the people who engaged with its external accounts' posts, a lookalike a
// multiple of another audience of the account. size is computed when the audience is created
// (handlers/audiences/audience-size.ts).
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audiences', (t) => {
    t.text('id').primary(); // adaud_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('name').notNullable();
    t.text('source_type').notNullable(); // customer_list | engagement | lookalike
    t.jsonb('engagement').nullable(); // { rules: [{ source, external_account_id, post_ids, retention_days }] }
    t.text('source_audience_id').nullable().references('audiences.id');
    t.integer('lookalike_ratio').nullable(); // percent, 1 to 10
    t.bigInteger('size').notNullable();
    timestamp(t, 'deleted_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table audiences
    add constraint audiences_source_type check (source_type in ('customer_list', 'engagement', 'lookalike')),
    add constraint audiences_engagement check ((source_type = 'engagement') = (engagement is not null)),
    add constraint audiences_lookalike check ((source_type = 'lookalike') = (source_audience_id is not null)
      and (source_type = 'lookalike') = (lookalike_ratio is not null)),
    add constraint audiences_size check (size >= 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('audiences');
}
