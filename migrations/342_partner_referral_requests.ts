// A partner's requests for a referral link (spec/areas/partners.yaml): each names its kind (request_type: link) and
// the link it gave, whose `a` parameter is the partner's username: the affiliate_code an account is created with.
import type { Knex } from 'knex';
import { timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('partner_referral_requests', (t) => {
    t.text('id').primary(); // prr_
    t.text('user_id').notNullable().references('users.id'); // the partner
    t.text('request_type').notNullable();
    t.text('referral_link').notNullable();
    timestamps(t, knex);
    t.index(['user_id', 'created_at', 'id']);
  });
  await knex.raw("alter table partner_referral_requests add constraint partner_referral_requests_type check (request_type in ('link'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('partner_referral_requests');
}
