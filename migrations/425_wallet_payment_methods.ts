// Wallet payment methods (Apple Pay, Google Pay): a confirmation token says which method the buyer chose and, for a
// wallet, the hostname the checkout was served from (handlers/payment_method_domains/wallets.ts checks it is a
// verified payment method domain of the account); a payment records the method it was collected with.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table confirmation_tokens
    add column payment_method_type text not null default 'card',
    add column wallet_domain text,
    add constraint confirmation_tokens_method check (payment_method_type in ('card', 'apple_pay', 'google_pay')),
    add constraint confirmation_tokens_wallet_domain check ((payment_method_type = 'card') = (wallet_domain is null))`);
  await knex.raw(`alter table payments
    add column payment_method_type text not null default 'card',
    add constraint payments_method check (payment_method_type in ('card', 'apple_pay', 'google_pay'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table payments drop column payment_method_type');
  await knex.raw('alter table confirmation_tokens drop column wallet_domain, drop column payment_method_type');
}
