// Materialised balances: one row per account, currency and bucket, kept equal to the sum of its postings by the
// database itself, so reading a balance is a primary-key lookup whatever the account's history. Postings are
// append-only, and every entry (the postings sharing an entry_id) sums to zero when its transaction commits.
import type { Knex } from 'knex';
import { money, timestamp } from './support/columns.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ledger_balances', (t) => {
    t.text('account_id').notNullable().references('accounts.id');
    t.text('currency').notNullable();
    t.text('bucket').notNullable();
    money(t, 'amount').notNullable();
    timestamp(t, 'updated_at').notNullable().defaultTo(knex.raw("date_trunc('milliseconds', now())"));
    t.primary(['account_id', 'currency', 'bucket']);
  });
  // The balanced-entry check at commit finds an entry's postings by this index.
  await knex.schema.alterTable('ledger_postings', (t) => t.index(['entry_id']));

  // One aggregated upsert per INSERT statement (a transition table), in that statement: no writer can post
  // without moving the balance, and a payment's three postings cost one balance statement, not three.
  await knex.raw(`
    create function ledger_apply_postings() returns trigger language plpgsql as $$
    begin
      insert into ledger_balances as b (account_id, currency, bucket, amount)
        select account_id, currency, bucket, sum(amount) from new_postings group by account_id, currency, bucket
        on conflict (account_id, currency, bucket)
        do update set amount = b.amount + excluded.amount, updated_at = date_trunc('milliseconds', now());
      return null;
    end $$`);
  await knex.raw(`create trigger ledger_postings_move_balances after insert on ledger_postings
    referencing new table as new_postings for each statement execute function ledger_apply_postings()`);

  // The balances of the postings already made, computed once (before the guards below).
  await knex.raw(`insert into ledger_balances (account_id, currency, bucket, amount)
    select account_id, currency, bucket, sum(amount) from ledger_postings group by account_id, currency, bucket`);

  await knex.raw(`
    create function ledger_refuse_change() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'ledger_balances' then
        raise exception 'ledger balances move only with ledger postings' using errcode = 'restrict_violation';
      end if;
      raise exception 'ledger postings are append-only: post a reversing entry instead' using errcode = 'restrict_violation';
    end $$`);
  await knex.raw(`create trigger ledger_postings_append_only before update or delete on ledger_postings
    for each statement execute function ledger_refuse_change()`);
  await knex.raw(`create trigger ledger_balances_follow_postings before insert or update or delete on ledger_balances
    for each row when (pg_trigger_depth() = 0) execute function ledger_refuse_change()`);

  await knex.raw(`
    create function ledger_check_entry() returns trigger language plpgsql as $$
    declare total bigint;
    begin
      select sum(amount) into total from ledger_postings where entry_id = new.entry_id;
      if total <> 0 then
        raise exception 'ledger entry % does not balance: its postings sum to %', new.entry_id, total using errcode = 'check_violation';
      end if;
      return null;
    end $$`);
  await knex.raw(`create constraint trigger ledger_entries_balance after insert on ledger_postings
    deferrable initially deferred for each row execute function ledger_check_entry()`);

}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists ledger_entries_balance on ledger_postings');
  await knex.raw('drop trigger if exists ledger_postings_append_only on ledger_postings');
  await knex.raw('drop trigger if exists ledger_postings_move_balances on ledger_postings');
  await knex.raw('drop function if exists ledger_check_entry(), ledger_refuse_change(), ledger_apply_postings()');
  await knex.schema.alterTable('ledger_postings', (t) => t.dropIndex(['entry_id']));
  await knex.schema.dropTableIfExists('ledger_balances');
}
