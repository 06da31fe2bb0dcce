// GET /disputes/summary and GET /resolution_center_cases/summary read totals the database keeps (support/totals.ts):
// per account, status (and outcome) and currency, how many and how much, so a summary reads a few rows per group
// instead of every dispute or case the account ever had.
import type { Knex } from 'knex';
import { createTotals, dropTotals } from './support/totals.js';

const TABLES = [
  { name: 'dispute_totals', source: 'disputes', keys: ['account_id', 'status', 'currency'], sums: ['amount'] },
  { name: 'resolution_center_case_totals', source: 'resolution_center_cases', keys: ['account_id', 'status', 'outcome', 'currency'],
    nullable: ['outcome'], sums: ['amount'] },
];

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) await createTotals(knex, table);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) await dropTotals(knex, table);
}
