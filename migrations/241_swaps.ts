// Swaps between currencies of one balance at the sandbox's mid-market rates: the rate table the sandbox owns (each
// currency's value in USD as an integer over 10^8, exact), and the swaps made.
import type { Knex } from 'knex';
import { money, timestamps } from './support/columns.js';

/** USD per one unit of the currency, times 10^8 (1 EUR = 1.08 USD: 108000000). */
export const FX_RATES = [
  { currency: 'usd', usd_rate_e8: 100_000_000 },
  { currency: 'eur', usd_rate_e8: 108_000_000 },
  { currency: 'gbp', usd_rate_e8: 127_000_000 },
  { currency: 'cad', usd_rate_e8: 73_000_000 },
  { currency: 'aud', usd_rate_e8: 66_000_000 },
  { currency: 'nzd', usd_rate_e8: 60_000_000 },
  { currency: 'jpy', usd_rate_e8: 670_000 },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('fx_rates', (t) => {
    t.text('currency').primary();
    t.bigInteger('usd_rate_e8').notNullable();
    timestamps(t, knex);
  });
  await knex.raw('alter table fx_rates add constraint fx_rates_positive check (usd_rate_e8 > 0)');
  await knex('fx_rates').insert(FX_RATES);

  await knex.schema.createTable('swaps', (t) => {
    t.text('id').primary(); // swap_
    t.text('owner_id').notNullable(); // biz_ or user_
    t.text('ledger_id').notNullable().references('ledger_accounts.id');
    t.text('status').notNullable();
    t.text('from_symbol').notNullable(); // as asked: USD, EUR, USDC (held as usd)
    t.text('to_symbol').notNullable();
    t.text('from_currency').notNullable();
    t.text('to_currency').notNullable();
    money(t, 'amount_in').notNullable();
    money(t, 'amount_out').notNullable();
    money(t, 'repaid_amount').notNullable(); // the part of amount_out that repaid a negative balance
    t.bigInteger('rate_e8').notNullable(); // to_currency per from_currency, times 10^8
    timestamps(t, knex);
    t.index(['owner_id', 'created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('swaps');
  await knex.schema.dropTableIfExists('fx_rates');
}
