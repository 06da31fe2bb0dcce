// The KYC gate on payouts: an account without an approved identity verification may pay out up to
// KYC_PAYOUT_LIMIT_USD (USD minor units, the USD equivalent of its lifetime payouts at the sandbox's rates,
// handlers/shared/fx-rates.ts); the request that would pass it is refused and holds the account's funds with
// kyc_incomplete until an identity verification is approved (handlers/verifications/review.ts).
import type { Knex } from 'knex';
import { ApiError } from '../../runtime/errors.js';
import { query } from '../../runtime/request-db.js';
import { usdMinorUnits, usdRateOf } from '../shared/fx-rates.js';
import { holdFundsOnRefusal } from '../accounts/index.js';

/** 10,000.00 USD: the lifetime payouts an unverified account may make. */
export const KYC_PAYOUT_LIMIT_USD = 1_000_000;

// What the account has paid out or is paying out (not failed, canceled, denied or reversed), by currency, from its
// payout totals (migrations/590_payout_totals.ts: a few rows, whatever its history), and whether its identity is
// verified.
const PAID_OUT = `select (select coalesce(json_object_agg(currency, total), '{}') from (
    select currency, sum(amount)::bigint as total from payout_totals
    where account_id = $1 and status in ('requested', 'in_review', 'processing', 'completed') group by currency) t) as totals,
  exists (select 1 from verifications where account_id = $1 and purpose = 'identity' and status = 'approved') as verified,
  (select id from verifications where account_id = $1 and purpose = 'identity' and status in ('action_required', 'processing')
    order by created_at desc limit 1) as open_id`;

const GATE_LOCK = 'select pg_advisory_xact_lock(hashtext($1))';

async function usdOf(db: Knex, amount: number, currency: string): Promise<number> {
  const rate = await usdRateOf(db, currency);
  // A currency without a rate counts at par rather than escaping the gate.
  return rate === undefined ? amount : usdMinorUnits(amount, currency, rate);
}

/**
 * Refuses (400 invalid_state naming payment_controls.undated_pending_reason, saying how to verify) a payout of an
 * account already `held` with kyc_incomplete, or one of `amount` that would take an unverified account's lifetime
 * payouts past the limit. The hold it then sets stands although the refusal undoes the request's writes: the hold is
 * what the refusal means (idempotent: it sets kyc_incomplete only over no reason).
 */
export async function checkKycGate(db: Knex, accountId: string, amount: number, currency: string,
  account: { held: boolean; verified: boolean }): Promise<void> {
  const { held } = account;
  // Verified when the request read the account: no limit, and no lock to wait for.
  if (account.verified && !held) return;
  // Concurrent payouts of one account pass the gate one at a time (until the request's commit), so two cannot each
  // stay under the limit together. Not a lock on the account row, which other writes of the account take.
  await query(db, GATE_LOCK, [`kyc-gate:${accountId}`]);
  const [row] = await query<{ totals: Record<string, string>; verified: boolean; open_id: string | null }>(db, PAID_OUT, [accountId]);
  if (!held) {
    if (row.verified) return;
    let usd = await usdOf(db, amount, currency);
    for (const [c, total] of Object.entries(row.totals)) usd += await usdOf(db, Number(total), c);
    if (usd <= KYC_PAYOUT_LIMIT_USD) return;
    await holdFundsOnRefusal(db, accountId, 'kyc_incomplete');
  }
  const next = row.open_id
    ? `answer the identity verification ${row.open_id} (PATCH /verifications/${row.open_id})`
    : `start an identity verification (POST /verifications?account_id=${accountId})`;
  throw new ApiError(400, 'invalid_state', `Payouts from ${accountId} are blocked: kyc incomplete. Without an approved identity `
    + `verification an account pays out at most 10,000.00 USD in all; ${next}`, 'payment_controls.undated_pending_reason');
}
