// Tax on one purchase, by the buyer's country: used by calculate_tax on variants and plans, and by payment quotes.
import type { Knex } from 'knex';
import { taxRateOf } from './reference-tables.js';
import type { Money } from '../../generated/types.js';
import { money } from '../../runtime/money.js';

export interface TaxInput {
  /** minor units, before tax */
  amount: number;
  currency: string;
  /** ISO 3166-1 alpha-2 of the buyer */
  country: string;
}

export interface TaxResult {
  country: string;
  /** percent, e.g. 19 for 19% */
  tax_rate: number;
  subtotal: Money;
  tax_amount: Money;
  total: Money;
}

/** Exclusive tax, rounded half up to the minor unit in integer arithmetic (no floats on money). */
export function taxOn(amount: number, basisPoints: number): number {
  return Number((BigInt(amount) * BigInt(basisPoints) + 5000n) / 10000n);
}

export async function calculateTax(db: Knex, input: TaxInput): Promise<TaxResult> {
  const bp = await taxRateOf(db, input.country);
  const tax = taxOn(input.amount, bp);
  return {
    country: input.country.toUpperCase(),
    // Display only: the percentage as a JSON number (1950 bp -> 19.5); the division of two exact integers gives the
    // double nearest the two-decimal percent, whose shortest text is that percent. The tax itself is taxOn's.
    tax_rate: bp / 100,
    subtotal: money(input.amount, input.currency),
    tax_amount: money(tax, input.currency),
    total: money(input.amount + tax, input.currency),
  };
}
