// Balances (ldgr_) for every side that holds money: a business account, a user's personal wallet, the platform.
// Postings and materialised balances were keyed by accounts.id, which left no place for a user's wallet; they now
// name the ledger (ledger_accounts.id), one per owner and kind, holding every currency. The rows already posted move
// onto a business ledger per account, made here.
//
// Floors, in the database: the buckets money is spent from (available, in_transit, held) never go below zero, so
// no interleaving of concurrent payouts or transfers can overdraw a balance; `pending` may (a refund of funds
// already paid out leaves a negative balance, repaid by later income or a swap), as may the contra buckets that
// stand for money owed by or to the outside (processor_clearing, payout_clearing) and fees.
import type { Knex } from 'knex';

export const FLOORED_BUCKETS = ['available', 'in_transit', 'held'] as const;

export async function up(knex: Knex): Promise<void> {
  // One ledger per owner and kind; a second request making the same ledger meets the index and takes the first.
  await knex.raw(`create unique index ledger_accounts_business on ledger_accounts (account_id) where kind = 'business'`);
  await knex.raw(`create unique index ledger_accounts_personal on ledger_accounts (user_id) where kind = 'personal'`);
  await knex.raw(`create unique index ledger_accounts_platform on ledger_accounts (kind) where kind = 'platform'`);

  await knex.raw(`insert into ledger_accounts (id, account_id, kind)
    select 'ldgr_' || substr(md5(random()::text || p.account_id), 1, 16), p.account_id, 'business'
    from (select distinct account_id from ledger_postings) p
    where not exists (select 1 from ledger_accounts l where l.account_id = p.account_id and l.kind = 'business')`);

  await knex.raw('alter table ledger_postings disable trigger user');
  await knex.raw('alter table ledger_balances disable trigger user');
  for (const table of ['ledger_postings', 'ledger_balances']) {
    await knex.raw(`alter table ${table} add column ledger_id text references ledger_accounts(id)`);
    await knex.raw(`update ${table} t set ledger_id = l.id from ledger_accounts l where l.account_id = t.account_id and l.kind = 'business'`);
    await knex.raw(`alter table ${table} alter column ledger_id set not null`);
  }
  await knex.raw('drop index ledger_postings_entry_bucket');
  await knex.raw('alter table ledger_balances drop constraint ledger_balances_pkey');
  await knex.raw('alter table ledger_postings drop column account_id');
  await knex.raw('alter table ledger_balances drop column account_id');
  await knex.raw('alter table ledger_balances add primary key (ledger_id, currency, bucket)');
  await knex.raw('create index ledger_postings_ledger on ledger_postings (ledger_id, currency, bucket)');
  await knex.raw('create unique index ledger_postings_entry_bucket on ledger_postings (entry_id, ledger_id, bucket, currency)');

  // The floor is checked on the balances the upsert leaves (a CHECK constraint would judge the proposed insert row,
  // which carries the statement's delta, not the sum). The balance row's lock orders concurrent spenders, so each
  // sees the one before it.
  await knex.raw(`
    create or replace function ledger_apply_postings() returns trigger language plpgsql as $$
    declare overdrawn record;
    begin
      with moved as (
        insert into ledger_balances as b (ledger_id, currency, bucket, amount)
          select ledger_id, currency, bucket, sum(amount) from new_postings group by ledger_id, currency, bucket
          on conflict (ledger_id, currency, bucket)
          do update set amount = b.amount + excluded.amount, updated_at = date_trunc('milliseconds', now())
          returning b.ledger_id, b.currency, b.bucket, b.amount)
      select * into overdrawn from moved
        where amount < 0 and bucket in (${FLOORED_BUCKETS.map((b) => `'${b}'`).join(', ')}) limit 1;
      if found then
        raise exception 'balance % % % would go below zero (%)', overdrawn.ledger_id, overdrawn.currency, overdrawn.bucket, overdrawn.amount
          using errcode = 'check_violation', constraint = 'ledger_balances_floor';
      end if;
      return null;
    end $$`);
  // An entry balances per currency (a swap's two legs are two currencies, each of which sums to zero).
  await knex.raw(`
    create or replace function ledger_check_entry() returns trigger language plpgsql as $$
    declare bad record;
    begin
      select currency, sum(amount) as total into bad from ledger_postings where entry_id = new.entry_id
        group by currency having sum(amount) <> 0 limit 1;
      if found then
        raise exception 'ledger entry % does not balance in %: its postings sum to %', new.entry_id, bad.currency, bad.total
          using errcode = 'check_violation';
      end if;
      return null;
    end $$`);
  await knex.raw('alter table ledger_postings enable trigger user');
  await knex.raw('alter table ledger_balances enable trigger user');
}

export async function down(knex: Knex): Promise<void> {
  throw new Error(`200_ledgers cannot be undone: postings of personal and platform ledgers have no account to return to (${knex.client.config.client})`);
}
