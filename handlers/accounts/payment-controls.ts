// payment_controls.undated_pending_reason: why an account's funds are held back (payouts refused,
// handlers/payouts/request-payout.ts; funds kept from clearing, handlers/ledger/clearing.ts). One reason at a time;
// who sets and clears each (docs/sandbox/identity-checker.md, "Funds held back"):
//   withdrawals_disabled         the platform operator (npm run cli -- operator --withdrawals disable|enable)
//   compliance_review            POST /sandbox/accounts/{id}/compliance_review, cleared by .../compliance_review/resolve
//   pending_information_request  the sandbox reviewer asking for answers again; cleared when they are all answered
//   kyc_incomplete               cleared by an approved identity verification
// A reason is set only over no reason (the operator's switch excepted: it overrides), and cleared only by its own
// clearer, so one clearer never releases funds that another reason holds.
import type { Knex } from 'knex';
import { nowMs } from '../shared/now.js';
import { keepOnRefusal } from '../../runtime/request-db.js';

export type HoldReason = 'withdrawals_disabled' | 'compliance_review' | 'pending_information_request' | 'kyc_incomplete';

/** Holds the account's funds for `reason` unless another reason already does; answers the reason now in force. */
export async function holdFunds(db: Knex, accountId: string, reason: HoldReason, override = false): Promise<string | null> {
  const q = db('accounts').where({ id: accountId });
  if (!override) q.whereNull('undated_pending_reason');
  await q.update({ undated_pending_reason: reason, updated_at: nowMs(db) });
  return (await db('accounts').where({ id: accountId }).first('undated_pending_reason'))?.undated_pending_reason ?? null;
}

/** Holds the account's funds for `reason` unless another reason already does, in a write that stands when the request
 * is refused (runtime/request-db.ts keepOnRefusal): for a refusal whose meaning is the hold. */
export function holdFundsOnRefusal(db: Knex, accountId: string, reason: HoldReason): Promise<void> {
  return keepOnRefusal(db, `update accounts set undated_pending_reason = $2, updated_at = date_trunc('milliseconds', now())
    where id = $1 and undated_pending_reason is null`, [accountId, reason]);
}

/** Releases the account's funds if `reason` is what holds them; answers whether it did. */
export async function releaseFunds(db: Knex, accountId: string, reason: HoldReason): Promise<boolean> {
  const n = await db('accounts').where({ id: accountId, undated_pending_reason: reason })
    .update({ undated_pending_reason: null, updated_at: nowMs(db) });
  return n > 0;
}
