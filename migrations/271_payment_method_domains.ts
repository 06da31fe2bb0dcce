// Payment method domains (spec/areas/payment_method_domains.yaml) and the sandbox's own DNS TXT records, which the
// verification job (handlers/payment_method_domains/verification.ts) reads instead of the internet's DNS.
import type { Knex } from 'knex';
import { timestamp, timestamps } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_method_domains', (t) => {
    t.text('id').primary(); // pmd_
    t.text('account_id').notNullable().references('accounts.id');
    t.text('domain').notNullable(); // lower-cased hostname
    t.text('status').notNullable(); // pending | verified
    t.text('txt_record_name').notNullable();
    t.text('verification_token').notNullable();
    t.text('verification_error').nullable();
    timestamp(t, 'verified_at').nullable();
    timestamps(t, knex);
    t.unique(['account_id', 'domain']);
    t.index(['account_id', 'created_at', 'id']);
    t.index(['account_id', 'status', 'created_at', 'id']);
  });
  await knex.raw(`alter table payment_method_domains
    add constraint payment_method_domains_status check (status in ('pending', 'verified')),
    add constraint payment_method_domains_verified check ((status = 'verified') = (verified_at is not null))`);
  await knex.schema.createTable('sandbox_dns_txt_records', (t) => {
    // Like DNS, a name may hold several TXT records (two accounts proving the same hostname each publish theirs).
    t.text('name').notNullable();
    t.text('value').notNullable();
    timestamps(t, knex);
    t.primary(['name', 'value']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sandbox_dns_txt_records');
  await knex.schema.dropTableIfExists('payment_method_domains');
}
