// Catalogue additions beyond 050: the tax rate table behind calculate_tax (and payment quotes).
// Rates are basis points (1900 = 19%) so tax is integer arithmetic on minor units; countries absent are untaxed.
import type { Knex } from 'knex';

/** Standard VAT/GST rates of a few countries, as of 2026. */
const RATES: Array<[country: string, basisPoints: number, name: string]> = [
  ['AU', 1000, 'GST'],
  ['CA', 500, 'GST'],
  ['DE', 1900, 'VAT'],
  ['FR', 2000, 'VAT'],
  ['GB', 2000, 'VAT'],
  ['IE', 2300, 'VAT'],
  ['JP', 1000, 'Consumption tax'],
  ['NL', 2100, 'VAT'],
  ['NZ', 1500, 'GST'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tax_rates', (t) => {
    t.text('country').primary(); // ISO 3166-1 alpha-2
    t.integer('rate_basis_points').notNullable();
    t.text('name').notNullable();
  });
  await knex('tax_rates').insert(RATES.map(([country, rate, name]) => ({ country, rate_basis_points: rate, name })));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('tax_rates');
}
