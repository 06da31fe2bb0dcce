// Verifications (spec/areas/verifications.yaml): one row per verification of an account, either its legal identity
// (KYC/KYB) or the signature of the ads agreement. What is requested and what was answered are small JSON lists
// held on the row: they are read and written whole, never queried inside.
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('verifications', (t) => {
    t.text('id').primary(); // verf_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('purpose').notNullable(); // identity | ads_agreement
    t.text('kind').notNullable(); // individual | business
    t.text('status').notNullable(); // action_required | processing | approved | rejected
    t.jsonb('requested_information').notNullable(); // [{ id, requirement, label, multiple?, options?, errors }]
    t.jsonb('answers').notNullable().defaultTo('{}'); // { requirement id: [answer, ...] }
    timestamp(t, 'submitted_at').nullable();
    timestamp(t, 'reviewed_at').nullable();
    timestamps(t, knex);
    t.index(['account_id', 'created_at', 'id']);
  });
  await knex.raw(`alter table verifications
    add constraint verifications_purpose check (purpose in ('identity', 'ads_agreement')),
    add constraint verifications_kind check (kind in ('individual', 'business')),
    add constraint verifications_status check (status in ('action_required', 'processing', 'approved', 'rejected'))`);
  // At most one open verification per account and purpose: POST /verifications answers the open one.
  await knex.raw(`create unique index verifications_one_open on verifications (account_id, purpose)
    where status in ('action_required', 'processing')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('verifications');
}
