// The KYC gate (handlers/payouts/kyc-gate.ts) reads an account's lifetime payouts from totals the database keeps per
// account, status and currency (support/totals.ts), so a payout request costs a few rows however many payouts the
// account has made. A user's own payouts (no account) total under a null account_id.
import type { Knex } from 'knex';
import { createTotals, dropTotals } from './support/totals.js';

const TABLE = { name: 'payout_totals', source: 'payouts', keys: ['account_id', 'status', 'currency'], nullable: ['account_id'], sums: ['amount'] };

export async function up(knex: Knex): Promise<void> {
  await createTotals(knex, TABLE);
}

export async function down(knex: Knex): Promise<void> {
  await dropTotals(knex, TABLE);
}
