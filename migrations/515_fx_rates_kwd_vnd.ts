// Two more currencies in the sandbox's rate table, so the processor charges (and swaps exchange) a currency of each
// minor-unit exponent besides 2: KWD has 3 (1.234 KWD is 1234 fils), VND has 0, as JPY has. Rates are the sandbox's
// own mid-market values, exact integers over 10^8 like the others (migrations/241_swaps.ts).
import type { Knex } from 'knex';

const ADDED = [
  { currency: 'kwd', usd_rate_e8: 326_000_000 }, // 1 KWD = 3.26 USD
  { currency: 'vnd', usd_rate_e8: 4_000 }, // 1 VND = 0.00004 USD
];

export async function up(knex: Knex): Promise<void> {
  await knex('fx_rates').insert(ADDED).onConflict('currency').ignore();
}

export async function down(knex: Knex): Promise<void> {
  await knex('fx_rates').whereIn('currency', ADDED.map((r) => r.currency)).delete();
}
